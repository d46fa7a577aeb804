import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { APP_CONFIG, type AppConfig, type Role } from '../config/app-config.js';
import { type FundingCollection, FundingRatesService } from '../funding-rates/funding-rates.service.js';
import { RedisLink } from '../redis/redis-link.js';

/** API instances look for a newer collection this often (the collector runs every 60 s by default). */
export const FUNDING_POLL_MS = 1000;

/**
 * Funding is collected once, by the ingest role; each collection is written to one Redis
 * key, and every API instance serves the newest it finds there, so `GET /v1/funding-rates` answers
 * the same on every instance.
 */
@Injectable()
export class FundingRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly role: Role;
  private subscription: Subscription | null = null;
  private timer: NodeJS.Timeout | null = null;
  private adoptedAt = 0;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly redis: RedisLink,
    private readonly funding: FundingRatesService,
  ) {
    this.role = config.scaleOut.role;
  }

  private get key(): string {
    return this.redis.key('funding');
  }

  onApplicationBootstrap(): void {
    if (this.role === 'ingest') {
      this.subscription = this.funding.collected.subscribe((c) => {
        void this.redis.commands.set(this.key, JSON.stringify(c)).catch(() => undefined);
      });
    }
    if (this.role === 'api') this.timer = setInterval(() => void this.poll(), FUNDING_POLL_MS).unref();
  }

  onApplicationShutdown(): void {
    this.subscription?.unsubscribe();
    if (this.timer) clearInterval(this.timer);
  }

  private async poll(): Promise<void> {
    const text = await this.redis.commands.get(this.key).catch(() => null);
    if (text === null) return;
    const collection = JSON.parse(text) as FundingCollection;
    if (collection.at <= this.adoptedAt) return;
    this.adoptedAt = collection.at;
    this.funding.adopt(collection);
  }
}
