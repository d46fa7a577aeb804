import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { Caller } from '../common/http/request-context.js';
import { errorFields } from '../common/logging/json-logger.js';
import { ApiTokenEntity } from './api-token.entity.js';
import { ApiTokenStore } from './api-token-store.js';
import { CLOCK, type Clock } from './stream-tickets.js';

/** Last-used times reach the table at most this often, one UPDATE per token used since. */
export const LAST_USED_FLUSH_MS = 60_000;

@Injectable()
export class ApiTokensService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Auth');
  private readonly store: ApiTokenStore;
  private readonly used = new Map<string, Date>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @InjectRepository(ApiTokenEntity) tokens: Repository<ApiTokenEntity>,
    @Inject(CLOCK) private readonly now: Clock,
  ) {
    this.store = new ApiTokenStore(tokens);
  }

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), LAST_USED_FLUSH_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  async verify(secret: string): Promise<Caller | undefined> {
    const now = new Date(this.now());
    const caller = await this.store.verify(secret, now);
    if (caller) this.used.set(caller.tokenId, now);
    return caller;
  }

  /** Writes the pending last-used times; a failure keeps nothing (the next use records it again). */
  async flush(): Promise<void> {
    if (this.used.size === 0) return;
    const pending = new Map(this.used);
    this.used.clear();
    try {
      await this.store.recordLastUsed(pending);
    } catch (error) {
      this.logger.warn({ msg: 'could not record token last-used times', tokens: pending.size, error: errorFields(error) });
    }
  }
}
