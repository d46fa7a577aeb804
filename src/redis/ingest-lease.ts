import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { APP_CONFIG, type AppConfig, type Role } from '../config/app-config.js';
import { RedisLink } from './redis-link.js';
import { errorFields } from '../common/logging/json-logger.js';

/** How long a lease outlives its holder's last renewal, and how often the holder renews. */
export interface LeaseTiming {
  ttlMs: number;
  renewMs: number;
}

export const DEFAULT_LEASE_TIMING: LeaseTiming = { ttlMs: 10_000, renewMs: 3_000 };
export const LEASE_TIMING = Symbol('LEASE_TIMING');

/** Extends the lease only while this process still holds it (never one another process took). */
const RENEW_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/**
 * The feeds, recorders and scheduled jobs run in exactly one process. ROLE=all holds the
 * lease by itself (nothing to share), ROLE=api never does, and ROLE=ingest holds it through a Redis
 * key with an expiry: a second ingest process started by mistake waits, and takes over only when
 * the first has stopped renewing (it stopped or died) for the lease's TTL.
 */
@Injectable()
export class IngestLease implements OnApplicationShutdown {
  private readonly logger = new Logger('IngestLease');
  private readonly role: Role;
  readonly holderId = randomUUID();
  private held = false;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  /** One round loop per process, however many jobs wait on the lease. */
  private campaigning = false;
  private readonly waiting: (() => void)[] = [];

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly redis: RedisLink,
    @Inject(LEASE_TIMING) private readonly timing: LeaseTiming,
  ) {
    this.role = config.scaleOut.role;
    this.held = this.role === 'all';
  }

  get holds(): boolean {
    return this.held;
  }

  /**
   * Runs `start` once this process holds the lease. With ROLE=all that is now, and the returned
   * promise is `start`'s own (so start-up waits for it exactly as before); with ROLE=ingest it
   * resolves at once and `start` runs when the lease is won; with ROLE=api `start` never runs.
   */
  run(start: () => void | Promise<void>): Promise<void> {
    if (this.role === 'all') return Promise.resolve(start());
    if (this.role === 'api') return Promise.resolve();
    this.waiting.push(() => void start());
    if (this.held) this.startWaiting();
    this.campaign();
    return Promise.resolve();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.held && this.role === 'ingest') {
      await this.redis.commands.eval(RELEASE_SCRIPT, 1, this.key, this.holderId).catch(() => undefined);
    }
    this.held = this.role === 'all';
  }

  private get key(): string {
    return this.redis.key('ingest:lease');
  }

  private campaign(): void {
    if (this.campaigning || this.stopped) return;
    this.campaigning = true;
    void this.tick();
  }

  /** One round: try to take or renew the lease, then schedule the next. */
  private async tick(): Promise<void> {
    this.timer = null;
    if (this.stopped) return;
    try {
      const won = this.held ? await this.renew() : await this.take();
      if (won && !this.held) {
        this.logger.log({ msg: 'this process now runs the feeds and scheduled jobs' });
        this.held = true;
        this.startWaiting();
      } else if (!won && this.held) {
        // Another process took over while this one could not renew; it keeps going but says so.
        this.logger.error({ msg: 'ingest lease lost to another process' });
        this.held = false;
      }
    } catch (err) {
      // Redis away: a holder keeps working (recording to PostgreSQL) and renews when it returns.
      this.logger.warn({ msg: 'ingest lease round failed', error: errorFields(err) });
    }
    if (!this.stopped) this.timer = setTimeout(() => void this.tick(), this.timing.renewMs);
  }

  private async take(): Promise<boolean> {
    return (await this.redis.commands.set(this.key, this.holderId, 'PX', this.timing.ttlMs, 'NX')) === 'OK';
  }

  private async renew(): Promise<boolean> {
    return Number(await this.redis.commands.eval(RENEW_SCRIPT, 1, this.key, this.holderId, this.timing.ttlMs)) === 1;
  }

  private startWaiting(): void {
    for (const start of this.waiting.splice(0)) start();
  }
}
