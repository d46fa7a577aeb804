import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { Subscription } from 'rxjs';
import { APP_CONFIG, type AppConfig, type Role } from '../config/app-config.js';
import { type Clock } from '../market-data/clock.js';
import { EXCHANGE_NAMES } from '../market-model/exchanges.js';
import { FEED_HEALTH_PUBLISH_MS, FeedHealthMirror } from '../market-data/feed-health-mirror.js';
import type { ExchangeHealth } from '../market-data/feed-health.js';
import { MARKET_CLOCK, MARKET_DATA_SOURCE } from '../market-data/market-data.constants.js';
import type { MarketDataSource, VolumeEntry } from '../market-data/market-data-source.js';
import { MarketDataService } from '../market-data/market-data.service.js';
import { MarketTable } from '../market-data/market-table.js';
import { QuoteBook } from '../market-data/quote-book.js';
import { IngestLease } from '../redis/ingest-lease.js';
import { RedisLink } from '../redis/redis-link.js';
import { decodeBatch, decodeMarketRef, encodeBatch } from './tick-codec.js';
import { errorFields } from '../common/logging/json-logger.js';

const TABLE_RELOAD_MS = 1000;

/** What the ingest process writes beside the ticks, every FEED_HEALTH_PUBLISH_MS. */
interface IngestState {
  at: number;
  health: Record<string, ExchangeHealth>;
  volumes: Record<string, VolumeEntry[]>;
}

/**
 * The quote book crosses from the ingest process to every API instance. The ingest side PUBLISHes
 * each tick batch of its ingest workers as it came (already conflated per market within the
 * worker's window), after storing any new entries of its market table; an API instance SUBSCRIBEs,
 * fills its own market table from that copy and applies the batches to its own book, so every
 * stream, the calculator and the lookers read exactly what a single process would. Feed health
 * and volumes ride along once a second in one key whose expiry tells API instances that the
 * ingest process is gone.
 */
@Injectable()
export class MarketRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('MarketRelay');
  private readonly role: Role;
  private readonly epoch: number;
  /** Ingest side: table entries below this index are stored in Redis (or queued on its connection). */
  private stored = 0;
  /** Ingest side: a table entry could not be written (Redis away): the whole table is written again next second. */
  private tableDirty = false;
  /** API side: the ingest epoch the market table was filled for, and the reads of it. */
  private remote = { epoch: Number.NaN, loading: false, loadedAt: 0 };
  private subscription: Subscription | null = null;
  private subscriber: Redis | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Counters for the benchmark and diagnostics. */
  readonly sent = { messages: 0, bytes: 0 };

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly redis: RedisLink,
    private readonly lease: IngestLease,
    @Inject(MARKET_DATA_SOURCE) private readonly source: MarketDataSource,
    @Inject(MARKET_CLOCK) private readonly clock: Clock,
    private readonly book: QuoteBook,
    private readonly table: MarketTable,
    private readonly marketData: MarketDataService,
    private readonly mirror: FeedHealthMirror,
  ) {
    this.role = config.scaleOut.role;
    this.epoch = clock.now();
  }

  private get channel(): string {
    return this.redis.key('ticks');
  }

  private get stateKey(): string {
    return this.redis.key('ingest:state');
  }

  private tableKey(epoch: number): string {
    return this.redis.key(`markets:${epoch}`);
  }

  onApplicationBootstrap(): Promise<void> {
    if (this.role === 'ingest') return this.lease.run(() => this.startPublishing());
    if (this.role === 'api') return this.startSubscribing();
    return Promise.resolve();
  }

  async onApplicationShutdown(): Promise<void> {
    this.subscription?.unsubscribe();
    if (this.timer) clearInterval(this.timer);
    await this.subscriber?.quit().catch(() => undefined);
  }

  // --- ingest side ---

  private startPublishing(): void {
    this.subscription = this.source.batches.subscribe((batch) => this.send(batch));
    this.timer = setInterval(() => void this.publishState(), FEED_HEALTH_PUBLISH_MS);
    this.timer.unref();
  }

  private send(batch: Float64Array): void {
    if (this.stored < this.table.size) {
      // One connection keeps command order, so the table entries land before any batch using them.
      void this.redis.commands.hset(this.tableKey(this.epoch), this.table.encoded(this.stored)).catch(() => {
        this.tableDirty = true;
      });
      this.stored = this.table.size;
    }
    const message = encodeBatch(this.epoch, batch);
    this.sent.messages += 1;
    this.sent.bytes += message.byteLength;
    // Redis away: the batch is lost for the API instances (their streams report missing data);
    // the book here and the recorders go on.
    void this.redis.commands.publish(this.channel, message).catch(() => undefined);
  }

  private async publishState(): Promise<void> {
    const volumes = Object.fromEntries(EXCHANGE_NAMES.map((e) => [e, this.book.volumesOf(e)]));
    const state: IngestState = { at: this.clock.now(), health: this.marketData.healthReport(), volumes };
    const pipeline = this.redis.commands.multi();
    const rewrite = this.tableDirty;
    if (rewrite) pipeline.hset(this.tableKey(this.epoch), this.table.encoded());
    pipeline.set(this.stateKey, JSON.stringify(state), 'PX', 3 * FEED_HEALTH_PUBLISH_MS);
    pipeline.pexpire(this.tableKey(this.epoch), 24 * 3_600_000);
    const written = await pipeline.exec().then(() => true, () => false);
    if (rewrite && written) this.tableDirty = false;
  }

  // --- API side ---

  private async startSubscribing(): Promise<void> {
    this.subscriber = this.redis.dedicated('ticks');
    this.subscriber.on('messageBuffer', (_channel: Buffer, message: Buffer) => this.onBatch(message));
    // Subscribed again by ioredis after a reconnect (autoResubscribe).
    await this.subscriber.subscribe(this.channel).catch((err: unknown) => this.logger.warn({ msg: 'relay subscribe failed, retrying with the connection', error: errorFields(err) }));
    this.timer = setInterval(() => void this.readState(), FEED_HEALTH_PUBLISH_MS);
    this.timer.unref();
  }

  private onBatch(message: Buffer): void {
    const decoded = decodeBatch(message);
    if (!decoded) return;
    if (decoded.epoch !== this.remote.epoch) {
      // A new ingest process assigns its own indexes.
      this.table.clear();
      this.remote = { epoch: decoded.epoch, loading: false, loadedAt: 0 };
    }
    const unknown = this.book.applyBatch(decoded.batch);
    // A market first quoted since the table was read: read it again (the ingest side wrote it first).
    if (unknown > 0) void this.loadTable(decoded.epoch);
  }

  private async loadTable(epoch: number): Promise<void> {
    // At most one read a second: a market the ingest side could not store yet stays unknown until it does.
    const remote = this.remote;
    if (remote.loading || this.clock.now() - remote.loadedAt < TABLE_RELOAD_MS) return;
    remote.loading = true;
    remote.loadedAt = this.clock.now();
    try {
      const entries = await this.redis.commands.hgetall(this.tableKey(epoch));
      if (this.remote !== remote) return;
      for (const [index, text] of Object.entries(entries)) {
        const ref = decodeMarketRef(text);
        if (ref) this.table.define(Number(index), ref);
      }
    } catch (err) {
      this.logger.warn({ msg: 'reading the market table failed', error: errorFields(err) });
    } finally {
      remote.loading = false;
    }
  }

  private async readState(): Promise<void> {
    const text = await this.redis.commands.get(this.stateKey).catch(() => null);
    if (text === null) return;
    const state = JSON.parse(text) as IngestState;
    this.mirror.set(state.health, state.at);
    for (const exchange of EXCHANGE_NAMES) this.book.mergeVolumes(exchange, state.volumes[exchange] ?? []);
  }
}
