import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { Subscription } from 'rxjs';
import { APP_CONFIG, type AppConfig, type Role } from '../config/app-config.js';
import type { OpportunityEventDto } from '../realtime/dto/opportunity-event.dto.js';
import { OpportunityStreamService, type PublishedOpportunity } from '../realtime/opportunity-stream.service.js';
import { RedisLink } from '../redis/redis-link.js';
import { errorFields } from '../common/logging/json-logger.js';

/** The `streams` rule: the replay keeps 10,000 events; the Redis stream is trimmed to about as many. */
export const STREAM_MAX_EVENTS = 10_000;
/** How long one blocking read waits before it is issued again (and shutdown noticed). */
const BLOCK_MS = 2000;
const RETRY_MS = 500;

type StreamEntry = [id: string, fields: string[]];

/**
 * Opportunity events cross on a Redis Stream. The ingest role detects and numbers each
 * event once and XADDs it under that very number (`<id>-0`), trimmed to about 10,000 entries.
 * Every API instance first fills its replay ring from the stream, then follows it with blocking
 * reads from the last id it holds, so a client reconnecting with Last-Event-ID to ANY instance
 * gets what it missed in order, and a read that resumes after an outage repeats nothing.
 */
@Injectable()
export class OpportunityRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OpportunityRelay');
  private readonly role: Role;
  private subscription: Subscription | null = null;
  private reader: Redis | null = null;
  private stopped = false;
  private following: Promise<void> | null = null;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly redis: RedisLink,
    private readonly stream: OpportunityStreamService,
  ) {
    this.role = config.scaleOut.role;
  }

  private get key(): string {
    return this.redis.key('opportunities');
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.role === 'ingest') await this.startPublishing();
    if (this.role === 'api') {
      this.reader = this.redis.dedicated('opportunities');
      await this.readBacklog().catch((err: unknown) => this.logger.warn({ msg: 'reading the stream backlog failed', error: errorFields(err) }));
      this.following = this.follow();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.subscription?.unsubscribe();
    this.reader?.disconnect();
    await this.following;
  }

  private async startPublishing(): Promise<void> {
    // Ids go on from the newest the stream holds, so they keep increasing across ingest restarts.
    const last = (await this.redis.commands.xrevrange(this.key, '+', '-', 'COUNT', 1).catch(() => [])) as StreamEntry[];
    const lastId = last[0] ? streamNumber(last[0][0]) : 0;
    this.stream.continueIdsAfter(lastId);
    this.subscription = this.stream.published.subscribe((p) => void this.append(p));
  }

  private async append({ id, at, event }: PublishedOpportunity): Promise<void> {
    try {
      await this.redis.commands.xadd(this.key, 'MAXLEN', '~', STREAM_MAX_EVENTS, `${id}-0`, 'at', String(at), 'event', JSON.stringify(event));
    } catch (err) {
      this.logger.warn({ msg: 'opportunity not relayed', id, error: errorFields(err) });
    }
  }

  private async readBacklog(): Promise<void> {
    const entries = (await this.reader!.xrevrange(this.key, '+', '-', 'COUNT', STREAM_MAX_EVENTS)) as StreamEntry[];
    for (const entry of entries.reverse()) this.deliver(entry);
  }

  /** Blocking reads after the last delivered id; after an outage they resume there, nothing missed. */
  private async follow(): Promise<void> {
    while (!this.stopped) {
      try {
        const after = `${this.stream.lastDeliveredId}-0`;
        const result = (await this.reader!.xread('COUNT', 1000, 'BLOCK', BLOCK_MS, 'STREAMS', this.key, after));
        for (const [, entries] of result ?? []) for (const entry of entries) this.deliver(entry);
      } catch (err) {
        if (this.stopped) return;
        this.logger.debug({ msg: 'stream read failed', error: errorFields(err) });
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
  }

  private deliver([streamId, fields]: StreamEntry): void {
    const value = (name: string): string | undefined => fields[fields.indexOf(name) + 1];
    const event = value('event');
    if (event === undefined) return;
    this.stream.deliver({ id: streamNumber(streamId), at: Number(value('at')), event: JSON.parse(event) as OpportunityEventDto });
  }
}

/** `1764000000123-0` → 1764000000123: the SSE id is the stream id's first part. */
function streamNumber(streamId: string): number {
  return Number(streamId.split('-')[0]);
}
