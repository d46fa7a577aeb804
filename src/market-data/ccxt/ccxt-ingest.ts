import type { Exchange, MarketInterface } from 'ccxt';
import type { ExchangeName, Market } from '../../market-model/exchanges.js';
import type { Clock } from '../clock.js';
import type {
  ConnectionEvent,
  CurrencyNetwork,
  FundingSettlementRead,
  FundingSnapshot,
  MarketListing,
  TradingFee,
  VolumeEntry,
} from '../market-data-source.js';
import { chunk } from '../symbol-universe.js';
import { type BackoffPolicy, backoffDelay } from './backoff.js';
import { fetchFundingSnapshots } from './ccxt-funding.js';
import { fetchSettlementHistory } from './ccxt-funding-history.js';
import { marketKind, type Settle, symbolsByTicker, toListings, toTakerFees, toVolumes } from './ccxt-markets.js';
import { toNetworks } from './ccxt-networks.js';
import { fromCcxtSymbol, multiplierOfCcxtSymbol } from '../../market-model/ticker.js';
import { toFeedClient } from './feed-client.js';
import { FeedConnection, type QuoteSink } from './feed-connection.js';
import { RestGate } from './rest-gate.js';
import { marketStatusOf, notTradingByTicker, ParkedMarkets } from './market-status.js';
import { WindowPacer } from './window-pacer.js';
import { venueOf } from '../../venues/registry.js';

/** Creates a fresh ccxt pro client for an exchange (pointed at the simulator when configured). */
export type ExchangeClientFactory = (exchange: ExchangeName) => Exchange;

/**
 * The venue's own rules come from its folder (src/venues/<name>): symbols per connection and per
 * subscribe request (`feeds`), new connections per window (`feeds.dials`), funding-history calls
 * per window (`funding.historyCalls`). ccxt sends one subscribe request per watch call with every
 * symbol of the call, and distributes nothing itself, so a connection's symbols are subscribed in
 * groups of at most `perSubscribe`, each group one watch call (one request) on the connection's
 * one client. Windows are stretched by a quarter so that a dial that lands late still counts in a
 * later one.
 */
const DIAL_WINDOW_MARGIN = 1.25;

export interface CcxtIngestOptions {
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
  /** Where every quote of every feed goes, by market index. */
  sink: QuoteSink;
  onState(event: ConnectionEvent): void;
}

const FETCH_TICKERS_PARAMS: Record<Market, Record<string, string>> = {
  SPOT: { type: 'spot' },
  FUTURES: { type: 'swap', subType: 'linear' },
};

/**
 * The exchange side of market data, run inside an ingest worker (never on the serving thread).
 * One REST client per exchange loads markets (once, reloaded when older than
 * `marketsRefreshMs`), 24 h tickers, funding, fees and networks. Each subscription chunk gets
 * its OWN client, so it owns exactly one socket: silence on one connection is handled by closing
 * that client without touching the others. The chunk clients (and the depth clients) of one
 * exchange and market type share one set of ccxt market objects (`typeMarkets`), holding that
 * type only, so ambiguous exchange ids (binance `BTCUSDT` is spot and perpetual) resolve to it.
 */
export class CcxtIngest {
  private readonly restClients = new Map<ExchangeName, Exchange>();
  private readonly accountClients = new Map<ExchangeName, Exchange | undefined>();
  private readonly marketsLoadedAt = new Map<ExchangeName, number>();
  private readonly connections: { exchange: ExchangeName; connection: FeedConnection }[] = [];
  private readonly dialPacers = new Map<ExchangeName, WindowPacer>();
  private readonly restGates = new Map<ExchangeName, RestGate>();
  private readonly historyPacers = new Map<ExchangeName, WindowPacer>();
  private readonly parked = new ParkedMarkets();
  /** Per `exchange|market`: a never-connected client holding that type's markets, and the markets record it was built from. */
  private readonly marketHolders = new Map<string, { from: object; holder: Exchange }>();
  private closed = false;

  constructor(private readonly options: CcxtIngestOptions) {}

  /** The exchange's markets as this worker's REST client loaded them (the depth feeds' symbols). */
  loadedMarkets(exchange: ExchangeName): Promise<Record<string, MarketInterface | undefined>> {
    return this.loadMarkets(exchange);
  }

  /**
   * A client (never connected) holding the exchange's markets of one type, built once per loaded
   * markets record. Feed and depth clients take its market objects by reference
   * (`setMarketsFromExchange`) instead of a copy each: ccxt's `setMarkets` builds every market
   * object anew, about 1.3-2.7 KB a market, and a worker at 3,020 markets held three copies.
   */
  async typeMarkets(exchange: ExchangeName, market: Market): Promise<Exchange> {
    return this.holderOf(exchange, market, await this.loadMarkets(exchange));
  }

  private holderOf(exchange: ExchangeName, market: Market, markets: Record<string, MarketInterface | undefined>): Exchange {
    const key = `${exchange}|${market}`;
    const held = this.marketHolders.get(key);
    if (held?.from === markets) return held.holder;
    const holder = this.options.createClient(exchange);
    holder.setMarkets(Object.values(markets).filter((m): m is MarketInterface => m !== undefined && marketKind(m, settleOf(exchange)) === market));
    this.marketHolders.set(key, { from: markets, holder });
    return holder;
  }

  async listMarkets(exchange: ExchangeName): Promise<MarketListing[]> {
    return toListings(await this.loadMarkets(exchange), settleOf(exchange));
  }

  async fetchVolumes(exchange: ExchangeName): Promise<VolumeEntry[]> {
    const client = this.rest(exchange);
    const markets = await this.loadMarkets(exchange);
    const out: VolumeEntry[] = [];
    for (const market of ['SPOT', 'FUTURES'] as const) {
      out.push(...toVolumes(market, await client.fetchTickers(undefined, FETCH_TICKERS_PARAMS[market]), markets));
    }
    return out;
  }

  async fetchFundingRates(exchange: ExchangeName): Promise<FundingSnapshot[]> {
    return fetchFundingSnapshots(exchange, this.rest(exchange), await this.loadMarkets(exchange));
  }

  /** Settled funding of one listed perpetual since `since`; rejects when the exchange does not list it. */
  async fetchFundingHistory(exchange: ExchangeName, ticker: string, since: number): Promise<FundingSettlementRead[]> {
    const symbol = symbolsByTicker(await this.loadMarkets(exchange), settleOf(exchange)).get(`FUTURES|${ticker}`);
    if (symbol === undefined) throw new Error(`${exchange} lists no perpetual ${ticker}`);
    let pacer = this.historyPacers.get(exchange);
    if (!pacer) {
      const limit = venueOf(exchange).funding.historyCalls;
      this.historyPacers.set(exchange, (pacer = new WindowPacer(limit.calls, Math.ceil(limit.windowMs * DIAL_WINDOW_MARGIN), this.options.clock)));
    }
    const pace = pacer;
    return fetchSettlementHistory(exchange, this.rest(exchange), symbol, since, this.options.clock.now(), () => pace.acquire());
  }

  /** Public per-market rates from the loaded markets; reloads markets as listMarkets does. */
  async fetchTradingFees(exchange: ExchangeName): Promise<TradingFee[]> {
    return toTakerFees(await this.loadMarkets(exchange), settleOf(exchange));
  }

  /**
   * Network states per currency. gate and bitget publish them; binance, bybit and okx
   * only to a signed call, made with the exchange's API keys when configured. Without keys
   * ccxt answers those three with no currencies and makes no call: networks unknown.
   */
  async fetchNetworks(exchange: ExchangeName): Promise<CurrencyNetwork[]> {
    // An on-chain venue has no deposit networks of its own to list.
    if (venueOf(exchange).networks.access === 'none') return [];
    const client = this.account(exchange) ?? this.rest(exchange);
    return toNetworks(await client.fetchCurrencies());
  }

  /**
   * Starts feeds for these tickers (`indexes[i]` is the market index of `tickers[i]`); tickers
   * the exchange does not list in this market are skipped. Markets are loaded first when this
   * client has none yet (a restarted worker), retried with backoff. Feeds live until `close()`.
   */
  watch(exchange: ExchangeName, market: Market, tickers: readonly string[], indexes: readonly number[]): void {
    void this.watchWhenLoaded(exchange, market, tickers, indexes);
  }

  private async watchWhenLoaded(exchange: ExchangeName, market: Market, tickers: readonly string[], indexes: readonly number[]): Promise<void> {
    for (let attempt = 0; !this.closed && this.restClients.get(exchange)?.markets === undefined; attempt++) {
      try {
        await this.loadMarkets(exchange);
      } catch {
        await new Promise((resolve) => setTimeout(resolve, backoffDelay(attempt, this.options.backoff)));
      }
    }
    if (this.closed) return;
    const markets: Record<string, MarketInterface | undefined> = this.restClients.get(exchange)?.markets ?? {};
    const symbols = symbolsByTicker(markets, settleOf(exchange));
    const listed = tickers
      .map((ticker, i) => ({ symbol: symbols.get(`${market}|${ticker}`) ?? '', index: indexes[i] ?? -1 }))
      .filter(({ symbol, index }) => markets[symbol] !== undefined && index >= 0);
    this.parkNotTrading(exchange, market, tickers, indexes, markets);
    const limits = venueOf(exchange).feeds;
    const pacer = this.dialPacer(exchange);
    chunk(listed, limits.perConnection).forEach((part, i) => {
      const client = this.options.createClient(exchange);
      client.setMarketsFromExchange(this.holderOf(exchange, market, markets));
      disableCcxtReconnectBackoff(client);
      const connection = new FeedConnection({
        id: `${exchange}:${market}:${tickers.length}:${indexes[0] ?? 0}:${i}`,
        exchange,
        market,
        symbols: part.map(({ symbol }) => symbol),
        symbolsPerSubscribe: limits.perSubscribe,
        indexes: part.map(({ index }) => index),
        marketIds: part.map(({ symbol }) => markets[symbol]?.id ?? ''),
        beforeDial: pacer ? () => pacer.acquire() : undefined,
        contractSizes: part.map(({ symbol }) => (markets[symbol]?.contract ? (markets[symbol]?.contractSize ?? 1) : 1)),
        multipliers: part.map(({ symbol }) => multiplierOfCcxtSymbol(symbol)),
        client: toFeedClient(client, limits.quotesFrom),
        clock: this.options.clock,
        silenceTimeoutMs: this.options.silenceTimeoutMs,
        backoff: this.options.backoff,
        sink: this.options.sink,
        onState: (event) => {
          // A refused or dropped market waits for a markets reload that shows it trading again.
          const at = part.findIndex(({ symbol }) => event.state === 'refused' && fromCcxtSymbol(symbol) === event.ticker);
          const index = part[at]?.index;
          if (index !== undefined && event.ticker) this.parked.park(exchange, { market, ticker: event.ticker, index });
          this.options.onState(event);
        },
      });
      this.connections.push({ exchange, connection });
      connection.start();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.connections.map((c) => c.connection.stop()));
    this.connections.length = 0;
    const clients = [...this.restClients.values(), ...this.accountClients.values()].filter((c) => c !== undefined);
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  }

  private rest(exchange: ExchangeName): Exchange {
    let client = this.restClients.get(exchange);
    if (!client) {
      client = this.gate(exchange).attach(this.options.createClient(exchange));
      this.restClients.set(exchange, client);
    }
    return client;
  }

  private account(exchange: ExchangeName): Exchange | undefined {
    if (!this.accountClients.has(exchange)) {
      const client = this.options.createAccountClient?.(exchange);
      this.accountClients.set(exchange, client && this.gate(exchange).attach(client));
    }
    return this.accountClients.get(exchange);
  }

  private async loadMarkets(exchange: ExchangeName): Promise<Record<string, MarketInterface | undefined>> {
    const now = this.options.clock.now();
    const loadedAt = this.marketsLoadedAt.get(exchange);
    const reload = loadedAt !== undefined && now - loadedAt >= this.options.marketsRefreshMs;
    const markets = await this.rest(exchange).loadMarkets(reload);
    if (loadedAt === undefined || reload) this.marketsLoadedAt.set(exchange, now);
    if (reload) {
      this.dropDelisted(exchange, markets);
      this.restoreTrading(exchange, markets);
    }
    return markets;
  }

  /**
   * Symbols gone from a reloaded market list are delisted, and those listed with a halted or
   * delisted status do not trade: their feeds drop them (each connection carries on without).
   */
  private dropDelisted(exchange: ExchangeName, markets: Record<string, MarketInterface | undefined>): void {
    for (const c of this.connections) {
      if (c.exchange !== exchange) continue;
      const gone = c.connection.symbols.filter((symbol) => markets[symbol] === undefined);
      if (gone.length > 0) c.connection.drop(gone, 'delisted: gone from the exchange\'s markets');
      for (const symbol of c.connection.symbols) {
        const listed = markets[symbol];
        const status = listed ? marketStatusOf(listed) : undefined;
        if (status && status.state !== 'trading') c.connection.drop([symbol], status.reason);
      }
    }
  }

  /** Parked markets the reload shows trading again: announced as listed and watched by a new feed. */
  private restoreTrading(exchange: ExchangeName, markets: Record<string, MarketInterface | undefined>): void {
    const back = this.parked.takeTrading(exchange, new Set(symbolsByTicker(markets, settleOf(exchange)).keys()));
    for (const market of ['SPOT', 'FUTURES'] as const) {
      const mine = back.filter((p) => p.market === market);
      if (mine.length === 0) continue;
      for (const p of mine) {
        this.options.onState({ exchange, market, connectionId: `${exchange}:${market}:listed`, state: 'listed', at: this.options.clock.now(), ticker: p.ticker, reason: 'trading again' });
      }
      void this.watchWhenLoaded(exchange, market, mine.map((p) => p.ticker), mine.map((p) => p.index));
    }
  }

  /** Tickers wanted on this market that the venue lists but does not trade: refused with the reason, parked. */
  private parkNotTrading(
    exchange: ExchangeName, market: Market, tickers: readonly string[], indexes: readonly number[], markets: Record<string, MarketInterface | undefined>,
  ): void {
    const notTrading = notTradingByTicker(markets, market, settleOf(exchange));
    if (notTrading.size === 0) return;
    const trading = symbolsByTicker(markets, settleOf(exchange));
    tickers.forEach((ticker, i) => {
      const reason = trading.has(`${market}|${ticker}`) ? undefined : notTrading.get(ticker);
      const index = indexes[i];
      if (reason === undefined || index === undefined) return;
      this.parked.park(exchange, { market, ticker, index });
      this.options.onState({ exchange, market, connectionId: `${exchange}:${market}:listed`, state: 'refused', at: this.options.clock.now(), ticker, reason });
    });
  }

  /**
   * The exchange's one budget of new websocket connections in this worker (its `feeds.dials`), shared
   * by every socket it opens: the quote feeds' and the depth feeds'. Undefined: no stated limit.
   */
  dialPacer(exchange: ExchangeName): WindowPacer | undefined {
    const limit = venueOf(exchange).feeds.dials;
    if (!limit) return undefined;
    let pacer = this.dialPacers.get(exchange);
    if (!pacer) this.dialPacers.set(exchange, (pacer = new WindowPacer(limit.dials, Math.ceil(limit.windowMs * DIAL_WINDOW_MARGIN), this.options.clock)));
    return pacer;
  }

  /** The exchange's REST gate: calls refused while a 429/418 back-off runs (one per exchange, all its REST clients). */
  private gate(exchange: ExchangeName): RestGate {
    let gate = this.restGates.get(exchange);
    if (!gate) {
      const onBan = ({ untilMs, reason }: { untilMs: number; reason: string }): void =>
        this.options.onState({ exchange, market: 'SPOT', connectionId: `${exchange}:rest`, state: 'rest-banned', at: this.options.clock.now(), reason, restBannedUntil: untilMs });
      this.restGates.set(exchange, (gate = new RestGate(exchange, this.options.clock, this.options.backoff, Math.random, onBan)));
    }
    return gate;
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

/** The currency the venue's perpetuals settle in (its folder's `quoteCurrency`). */
function settleOf(exchange: ExchangeName): Settle {
  return venueOf(exchange).quoteCurrency ?? 'USDT';
}
