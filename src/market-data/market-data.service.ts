import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown, Optional } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { MarketDataConfig } from '../config/market-data-config.js';
import type { ExchangeName } from '../market-model/exchanges.js';
import { MARKET_CLOCK, MARKET_DATA_SOURCE } from './market-data.constants.js';
import type { ConnectionEvent, MarketDataSource, MarketListing } from './market-data-source.js';
import { FeedHealth, type ExchangeHealth } from './feed-health.js';
import { QuoteBook } from './quote-book.js';
import { TickLatency } from './tick-latency.js';
import type { Clock } from './clock.js';
import { selectUniverse, tickersListed, watchedTickers } from './symbol-universe.js';
import { backoffDelay } from './ccxt/backoff.js';
import { type ExcludedTicker, NameCollisions } from './name-collisions.js';
import { IngestLease } from '../redis/ingest-lease.js';
import { FeedHealthMirror } from './feed-health-mirror.js';
import { DepthService } from './depth/depth.service.js';
import { EndpointRefusalWatch, endpointLines } from './endpoint-watch.js';
import { cleanText, errorFields } from '../common/logging/json-logger.js';

/** ENABLED_WEBSOCKET as /health/market reports it. */
export type FeedsState = 'on' | 'off';

/**
 * Runs the feeds when ENABLED_WEBSOCKET=1: loads markets and volumes, picks the symbol
 * universe, starts the source's watches, hands its tick batches to the quote book and refreshes volumes
 * and markets on their timers. Without the flag it opens no connection at all.
 */
@Injectable()
export class MarketDataService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('MarketData');
  private readonly config: MarketDataConfig;
  private readonly health: FeedHealth;
  private readonly subscriptions: Subscription[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private universe: string[] = [];
  private stopped = false;
  private readonly servesOnly: boolean;
  private readonly endpoints: EndpointRefusalWatch;

  constructor(
    @Inject(APP_CONFIG) appConfig: AppConfig,
    @Inject(MARKET_DATA_SOURCE) private readonly source: MarketDataSource,
    private readonly book: QuoteBook,
    private readonly latency: TickLatency,
    @Inject(MARKET_CLOCK) private readonly clock: Clock,
    private readonly collisions: NameCollisions,
    private readonly lease: IngestLease,
    readonly mirror: FeedHealthMirror = new FeedHealthMirror(),
    // Named: the metadata of a `| null` type is Object, which Nest cannot resolve.
    @Optional() @Inject(DepthService) private readonly depth: DepthService | null = null,
  ) {
    this.config = appConfig.marketData;
    this.servesOnly = appConfig.scaleOut.role === 'api';
    this.health = new FeedHealth(this.config.exchanges);
    this.endpoints = new EndpointRefusalWatch(this.config.exchangeUrls, (line) => this.logger.warn({ msg: line }));
  }

  onApplicationBootstrap(): void {
    // REST runs without the feeds too (funding, costs): its bans are reported either way.
    this.subscriptions.push(this.source.connectionEvents.subscribe((event) => this.onRestBan(event)));
    if (!this.config.websocketEnabled) return;
    // Only the process holding the ingest lease opens feeds (ROLE=all: this one, now).
    void this.lease.run(() => this.startIngest());
  }

  private startIngest(): void {
    if (this.stopped) return;
    this.subscriptions.push(
      this.source.batches.subscribe((batch) => {
        this.latency.recordBatch(batch, this.book.table, this.clock.now());
        this.book.applyBatch(batch);
      }),
      this.source.connectionEvents.subscribe((event) => {
        if (event.state === 'rest-banned') return;
        this.health.onEvent(event);
        this.endpoints.onEvent(event);
        this.collisions.onFeedEvent(event);
      }),
    );
    for (const line of endpointLines(this.config.exchanges, this.config.exchangeUrls, this.config.simulatorUrl)) this.logger.log({ msg: line });
    this.collisions.start();
    // In the background: the HTTP server must come up even while exchanges are unreachable.
    void this.startFeeds();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.collisions.stop();
    this.timers.forEach((t) => clearInterval(t));
    await this.source.close();
    this.subscriptions.forEach((s) => s.unsubscribe());
  }

  private onRestBan(event: ConnectionEvent): void {
    if (event.state !== 'rest-banned' || event.restBannedUntil === undefined) return;
    this.health.onEvent(event);
    const until = new Date(event.restBannedUntil).toISOString();
    this.logger.warn({ msg: 'REST banned by the venue; no call to it until then', exchange: event.exchange, until, reason: cleanText(event.reason ?? 'rate limit') });
  }

  /** Per exchange; on an API instance, the ingest process's report relayed through Redis. */
  healthReport(): Record<string, ExchangeHealth> {
    const lastMessageAt = (exchange: ExchangeName) => this.book.lastMessageAt(exchange);
    if (!this.servesOnly) return this.health.report(lastMessageAt, this.clock.now());
    // No fresh report: the ingest process is gone, so no feed is up whatever the last ticks say.
    return this.mirror.fresh(this.clock.now()) ?? new FeedHealth(this.config.exchanges).report(lastMessageAt);
  }

  /**
   * /health/market: whether the feeds run at all, feed state per exchange and the tickers excluded
   * as name collisions. `feeds` comes first: with it off every exchange reads disconnected, which
   * alone would look like five outages.
   */
  marketHealth(): { feeds: FeedsState; exchanges: Record<string, ExchangeHealth>; excluded: ExcludedTicker[]; books: Record<string, number> } {
    const held = this.depth?.heldCounts();
    const books = Object.fromEntries(this.config.exchanges.map((e) => [e, held?.[e] ?? 0]));
    const feeds = this.config.websocketEnabled ? 'on' : 'off';
    return { feeds, exchanges: this.healthReport(), excluded: this.collisions.list(), books };
  }

  get symbols(): readonly string[] {
    return this.universe;
  }

  private async startFeeds(): Promise<void> {
    const loaded = await Promise.all(this.config.exchanges.map((e) => this.loadExchange(e, 0)));
    if (this.stopped) return;
    const ready = loaded.filter((x): x is NonNullable<typeof x> => x !== null);
    this.universe =
      this.config.symbols === 'auto' ? selectUniverse(ready, this.config.maxSymbols) : this.config.symbols;
    this.logger.log({ msg: 'watching symbols', symbols: this.universe.length, exchanges: this.config.exchanges });
    for (const { exchange, markets } of ready) this.watchExchange(exchange, markets);
    for (const exchange of this.config.exchanges.filter((e) => !ready.some((r) => r.exchange === e))) {
      void this.retryExchange(exchange);
    }
    this.timers.push(
      setInterval(() => void this.refreshVolumes(), this.config.volumeRefreshMs),
      setInterval(() => void this.refreshMarkets(), this.config.marketsRefreshMs),
    );
  }

  /** Markets and volumes of one exchange; null (logged) when it cannot be reached now. */
  private async loadExchange(exchange: ExchangeName, attempt: number) {
    try {
      const markets = await this.source.listMarkets(exchange);
      const leftOut = markets.filter((m) => m.leftOut !== undefined);
      if (leftOut.length > 0) this.logger.warn({ msg: 'markets left out', exchange, count: leftOut.length, first: leftOut.slice(0, 10).map((m) => `${m.market} ${m.ticker} (${m.leftOut ?? ''})`) });
      const volumes = await this.source.fetchVolumes(exchange);
      this.book.mergeVolumes(exchange, volumes);
      return { exchange, markets, volumes };
    } catch (err) {
      this.logger.warn({ msg: 'loading markets failed', exchange, attempt: attempt + 1, error: errorFields(err) });
      return null;
    }
  }

  private async retryExchange(exchange: ExchangeName): Promise<void> {
    for (let attempt = 1; !this.stopped; attempt++) {
      const delay = backoffDelay(attempt, { baseMs: this.config.reconnectBaseMs, maxMs: this.config.reconnectMaxMs });
      await new Promise((resolve) => this.timers.push(setTimeout(resolve, delay)));
      if (this.stopped) return;
      const loaded = await this.loadExchange(exchange, attempt);
      if (loaded && !this.stopped) return this.watchExchange(exchange, loaded.markets);
    }
  }

  private watchExchange(exchange: ExchangeName, markets: readonly MarketListing[]): void {
    let watched = 0;
    const wanted = watchedTickers(exchange, this.universe, this.config.exchanges);
    for (const market of ['SPOT', 'FUTURES'] as const) {
      const tickers = tickersListed(markets, market, market === 'SPOT' ? wanted.spot : wanted.futures);
      watched += tickers.length;
      if (tickers.length > 0) this.source.watch(exchange, market, tickers);
    }
    this.health.setMarketCount(exchange, watched);
  }

  private async refreshVolumes(): Promise<void> {
    for (const exchange of this.config.exchanges) {
      if (this.stopped) return;
      try {
        this.book.mergeVolumes(exchange, await this.source.fetchVolumes(exchange));
      } catch (err) {
        // Volume may lag (rules: quotes, opportunities); keep the last known values and try again next period.
        this.logger.warn({ msg: 'volume refresh failed', exchange, error: errorFields(err) });
      }
    }
  }

  private async refreshMarkets(): Promise<void> {
    for (const exchange of this.config.exchanges) {
      await this.source.listMarkets(exchange).catch((err: unknown) => {
        this.logger.warn({ msg: 'markets refresh failed', exchange, error: errorFields(err) });
      });
    }
  }
}
