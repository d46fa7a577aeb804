import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { Subscription } from 'rxjs';
import { APP_CONFIG, type AppConfig, type Role } from '../config/app-config.js';
import { type Clock } from '../market-data/clock.js';
import { EXCHANGE_NAMES } from '../market-data/exchanges.js';
import { FEED_HEALTH_PUBLISH_MS, FeedHealthMirror } from '../market-data/feed-health-mirror.js';
import type { ExchangeHealth } from '../market-data/feed-health.js';
import { DEFAULT_BATCH_POLICY, TickAccumulator } from '../market-data/ingest/tick-batch.js';
import { MARKET_CLOCK, QUOTE_TICK_BUS } from '../market-data/market-data.constants.js';
import type { QuoteTick, VolumeEntry } from '../market-data/market-data-source.js';
import { MarketDataService } from '../market-data/market-data.service.js';
import { QuoteBook } from '../market-data/quote-book.js';
import type { QuoteTickBus } from '../market-data/quote-tick-bus.js';
import { IngestLease } from './ingest-lease.js';
import { RedisLink } from './redis-link.js';
import { type MarketRef, MarketIndex, decodeBatch, decodeMarketRef, encodeBatch, encodeMarketRef, exchangeIndex, ticksOf } from './tick-codec.js';

const TABLE_RELOAD_MS = 1000;

/** What the ingest process writes beside the ticks, every FEED_HEALTH_PUBLISH_MS. */
interface IngestState {
  at: number;
  health: Record<string, ExchangeHealth>;
  volumes: Record<string, VolumeEntry[]>;
}

/**
 * Issue 20: the quote book crosses from the ingest process to every API instance. The ingest side
 * batches the ticks its book applies (conflated per market, ≤ 5 ms) and PUBLISHes each batch; an
 * API instance SUBSCRIBEs and applies them to its own book, so every stream, the calculator and
 * the lookers read exactly what a single process would. Feed health and volumes ride along once a
 * second in one key whose expiry tells API instances that the ingest process is gone.
 */
@Injectable()
export class MarketRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('MarketRelay');
  private readonly role: Role;
  private readonly epoch: number;
  private readonly index = new MarketIndex();
  private readonly accumulator = new TickAccumulator(EXCHANGE_NAMES.length, (batch) => this.send(batch), DEFAULT_BATCH_POLICY);
  private table = { epoch: Number.NaN, markets: new Map<number, MarketRef>(), loading: false, loadedAt: 0 };
  /** A table entry that could not be written (Redis away): the whole table is written again next second. */
  private tableDirty = false;
  private subscription: Subscription | null = null;
  private subscriber: Redis | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Counters for the benchmark and diagnostics. */
  readonly sent = { messages: 0, bytes: 0 };

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly redis: RedisLink,
    private readonly lease: IngestLease,
    @Inject(QUOTE_TICK_BUS) private readonly bus: QuoteTickBus,
    @Inject(MARKET_CLOCK) private readonly clock: Clock,
    private readonly book: QuoteBook,
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
    this.accumulator.flush();
    await this.subscriber?.quit().catch(() => undefined);
  }

  // --- ingest side ---

  private startPublishing(): void {
    this.subscription = this.bus.ticks.subscribe((tick) => this.onTick(tick));
    this.timer = setInterval(() => void this.publishState(), FEED_HEALTH_PUBLISH_MS);
    this.timer.unref();
  }

  private onTick(tick: QuoteTick): void {
    const { index, added } = this.index.indexOf(tick);
    if (added) {
      this.accumulator.addMarkets([index], exchangeIndex(tick.exchange));
      // One connection keeps command order, so the table entry lands before any batch using it.
      void this.redis.commands.hset(this.tableKey(this.epoch), String(index), encodeMarketRef(tick)).catch(() => {
        this.tableDirty = true;
      });
    }
    this.accumulator.quote(index, tick.bid, tick.ask, tick.bidQty, tick.askQty, tick.exchangeTime ?? Number.NaN, tick.receivedAt);
  }

  private send(batch: Float64Array): void {
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
    if (rewrite) pipeline.hset(this.tableKey(this.epoch), this.index.table());
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
    await this.subscriber.subscribe(this.channel).catch((err: unknown) => this.logger.warn(`subscribe failed, retrying with the connection: ${String(err)}`));
    this.timer = setInterval(() => void this.readState(), FEED_HEALTH_PUBLISH_MS);
    this.timer.unref();
  }

  private onBatch(message: Buffer): void {
    const decoded = decodeBatch(message);
    if (!decoded) return;
    if (decoded.epoch !== this.table.epoch) {
      this.table = { epoch: decoded.epoch, markets: new Map(), loading: false, loadedAt: 0 };
    }
    const unknown = ticksOf(decoded.batch, this.table.markets, (tick) => this.book.apply(tick));
    // A market first quoted since the table was read: read it again (the ingest side wrote it first).
    if (unknown > 0) void this.loadTable(decoded.epoch);
  }

  private async loadTable(epoch: number): Promise<void> {
    // At most one read a second: a market the ingest side could not store yet stays unknown until it does.
    if (this.table.loading || this.clock.now() - this.table.loadedAt < TABLE_RELOAD_MS) return;
    this.table.loading = true;
    this.table.loadedAt = this.clock.now();
    try {
      const entries = await this.redis.commands.hgetall(this.tableKey(epoch));
      if (this.table.epoch !== epoch) return;
      for (const [index, text] of Object.entries(entries)) {
        const ref = decodeMarketRef(text);
        if (ref) this.table.markets.set(Number(index), ref);
      }
    } catch (err) {
      this.logger.warn(`reading the market table failed: ${String(err)}`);
    } finally {
      if (this.table.epoch === epoch) this.table.loading = false;
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
