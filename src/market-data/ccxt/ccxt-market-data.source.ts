import type { Exchange, MarketInterface } from 'ccxt';
import { type Observable, Subject } from 'rxjs';
import type { ExchangeName, Market } from '../exchanges.js';
import type { Clock } from '../clock.js';
import type {
  ConnectionEvent,
  CurrencyNetwork,
  FundingSnapshot,
  MarketDataSource,
  MarketListing,
  QuoteTick,
  TradingFee,
  VolumeEntry,
} from '../market-data-source.js';
import { chunk } from '../symbol-universe.js';
import type { BackoffPolicy } from './backoff.js';
import { fetchFundingSnapshots } from './ccxt-funding.js';
import { toCcxtSymbol, toListings, toTakerFees, toVolumes } from './ccxt-markets.js';
import { toNetworks } from './ccxt-networks.js';
import { FeedConnection } from './feed-connection.js';

/** Creates a fresh ccxt pro client for an exchange (pointed at the simulator when configured). */
export type ExchangeClientFactory = (exchange: ExchangeName) => Exchange;

/**
 * Symbols per websocket connection. binance allows 1,024 streams per connection but ccxt does
 * not enforce it, so stay well below; bybit spot takes at most 10 args per subscribe request
 * (ccxt sends one request per watch) and bitget advises fewer than 50 channels per connection.
 */
export const SYMBOLS_PER_CONNECTION: Record<ExchangeName, number> = {
  binance: 200,
  bybit: 10,
  okx: 100,
  gate: 100,
  bitget: 50,
};

export interface CcxtSourceOptions {
  createClient: ExchangeClientFactory;
  /**
   * The client holding an exchange's read-only API keys, or undefined when none are configured.
   * It makes only the signed currency call; markets, tickers and feeds never carry the keys.
   */
  createAccountClient?: (exchange: ExchangeName) => Exchange | undefined;
  clock: Clock;
  silenceTimeoutMs: number;
  backoff: BackoffPolicy;
  marketsRefreshMs: number;
}

const FETCH_TICKERS_PARAMS: Record<Market, Record<string, string>> = {
  SPOT: { type: 'spot' },
  FUTURES: { type: 'swap', subType: 'linear' },
};

/**
 * ccxt pro implementation. One REST client per exchange loads markets (once, reloaded when
 * older than `marketsRefreshMs`) and 24 h tickers. Each subscription chunk gets its OWN client
 * holding only its chunk's markets, so it owns exactly one socket: silence on one connection
 * is handled by closing that client without touching the others, and ambiguous exchange ids
 * (binance `BTCUSDT` is spot and perpetual) resolve to the chunk's one market type.
 */
export class CcxtMarketDataSource implements MarketDataSource {
  private readonly tickSubject = new Subject<QuoteTick>();
  private readonly eventSubject = new Subject<ConnectionEvent>();
  readonly ticks: Observable<QuoteTick> = this.tickSubject.asObservable();
  readonly connectionEvents: Observable<ConnectionEvent> = this.eventSubject.asObservable();
  private readonly restClients = new Map<ExchangeName, Exchange>();
  private readonly accountClients = new Map<ExchangeName, Exchange | undefined>();
  private readonly marketsLoadedAt = new Map<ExchangeName, number>();
  private readonly connections: FeedConnection[] = [];
  private closed = false;

  constructor(private readonly o: CcxtSourceOptions) {}

  async listMarkets(exchange: ExchangeName): Promise<MarketListing[]> {
    return toListings(await this.loadMarkets(exchange));
  }

  async fetchVolumes(exchange: ExchangeName): Promise<VolumeEntry[]> {
    const client = this.rest(exchange);
    await this.loadMarkets(exchange);
    const out: VolumeEntry[] = [];
    for (const market of ['SPOT', 'FUTURES'] as const) {
      out.push(...toVolumes(market, await client.fetchTickers(undefined, FETCH_TICKERS_PARAMS[market])));
    }
    return out;
  }

  async fetchFundingRates(exchange: ExchangeName): Promise<FundingSnapshot[]> {
    return fetchFundingSnapshots(exchange, this.rest(exchange), await this.loadMarkets(exchange));
  }

  /** Public per-market rates from the loaded markets (issue 10); reloads markets as listMarkets does. */
  async fetchTradingFees(exchange: ExchangeName): Promise<TradingFee[]> {
    return toTakerFees(await this.loadMarkets(exchange));
  }

  /**
   * Network states per currency (issue 10). gate and bitget publish them; binance, bybit and okx
   * only to a signed call, made with the exchange's API keys when configured. Without keys
   * ccxt answers those three with no currencies and makes no call: networks unknown.
   */
  async fetchNetworks(exchange: ExchangeName): Promise<CurrencyNetwork[]> {
    const client = this.account(exchange) ?? this.rest(exchange);
    return toNetworks(await client.fetchCurrencies());
  }

  watch(exchange: ExchangeName, market: Market, tickers: readonly string[]): void {
    if (this.closed) return;
    const markets: Record<string, MarketInterface | undefined> = this.restClients.get(exchange)?.markets ?? {};
    const symbols = tickers.map((t) => toCcxtSymbol(t, market)).filter((s) => markets[s] !== undefined);
    chunk(symbols, SYMBOLS_PER_CONNECTION[exchange]).forEach((part, i) => {
      const client = this.o.createClient(exchange);
      client.setMarkets(part.map((s) => markets[s] as MarketInterface));
      disableCcxtReconnectBackoff(client);
      const connection = new FeedConnection({
        id: `${exchange}:${market}:${this.connections.length}:${i}`,
        exchange,
        market,
        symbols: part,
        contractSizes: part.map((s) => (markets[s]?.contract ? (markets[s]?.contractSize ?? 1) : 1)),
        client: client,
        clock: this.o.clock,
        silenceTimeoutMs: this.o.silenceTimeoutMs,
        backoff: this.o.backoff,
        onTick: (tick) => this.tickSubject.next(tick),
        onState: (event) => this.eventSubject.next(event),
      });
      this.connections.push(connection);
      connection.start();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.connections.map((c) => c.stop()));
    this.connections.length = 0;
    const clients = [...this.restClients.values(), ...this.accountClients.values()].filter((c) => c !== undefined);
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    this.tickSubject.complete();
    this.eventSubject.complete();
  }

  private rest(exchange: ExchangeName): Exchange {
    let client = this.restClients.get(exchange);
    if (!client) {
      client = this.o.createClient(exchange);
      this.restClients.set(exchange, client);
    }
    return client;
  }

  private account(exchange: ExchangeName): Exchange | undefined {
    if (!this.accountClients.has(exchange)) this.accountClients.set(exchange, this.o.createAccountClient?.(exchange));
    return this.accountClients.get(exchange);
  }

  private async loadMarkets(exchange: ExchangeName): Promise<Record<string, MarketInterface | undefined>> {
    const now = this.o.clock.now();
    const loadedAt = this.marketsLoadedAt.get(exchange);
    const reload = loadedAt !== undefined && now - loadedAt >= this.o.marketsRefreshMs;
    const markets = await this.rest(exchange).loadMarkets(reload);
    if (loadedAt === undefined || reload) this.marketsLoadedAt.set(exchange, now);
    return markets;
  }
}

/**
 * ccxt 4.5.84 delays each re-dial of a URL by its own backoff (1 s doubling, reset only after
 * 30 s of stability). Our loop already backs off with jitter; stacked, the delays compound
 * and a feed that flapped a few times stays down for minutes.
 */
function disableCcxtReconnectBackoff(client: Exchange): void {
  const ws = (client.options as Record<string, unknown>)['ws'];
  client.options['ws'] = { ...(typeof ws === 'object' ? ws : {}), backoff: { base: 0, max: 0 } };
}
