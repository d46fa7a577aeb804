import { EXCHANGE_NAMES, type ExchangeName, type Market } from '../market-model/exchanges.js';
import type { QuoteTick, VolumeEntry } from './market-data-source.js';
import type { QuoteTickBus } from './quote-tick-bus.js';
import type { Clock } from './clock.js';
import { QUOTE_STALE_MS } from './market-data.constants.js';
import { MarketTable } from './market-table.js';
import { TICK_STRIDE } from './ingest/tick-batch.js';

/** A quote as read from the book: the last tick plus the merged 24 h volume (may lag 60 s). */
export interface BookQuote extends QuoteTick {
  readonly volume: number | null;
  readonly stale: boolean;
}

/**
 * Built field by field, never as `{ ...tick, volume, stale }`: V8 (11.3, Node 20) gives every
 * object made by a spread plus more properties a hidden class of its own, so a snapshot of
 * 3,000 quotes a second made 3,000 throw-away classes a second and kept deoptimising the code
 * that reads them (the soak). One literal shape is one class.
 */
function bookQuote(q: QuoteTick, volume: number | null, stale: boolean): BookQuote {
  return {
    exchange: q.exchange,
    market: q.market,
    ticker: q.ticker,
    bid: q.bid,
    ask: q.ask,
    bidQty: q.bidQty,
    askQty: q.askQty,
    exchangeTime: q.exchangeTime,
    receivedAt: q.receivedAt,
    volume,
    stale,
  };
}

type PerMarket<T> = Record<Market, Map<string, T>>;
type PerExchange<T> = Record<ExchangeName, PerMarket<T>>;

function perExchange<T>(): PerExchange<T> {
  const out = {} as PerExchange<T>;
  for (const exchange of EXCHANGE_NAMES) out[exchange] = { SPOT: new Map(), FUTURES: new Map() };
  return out;
}

/**
 * Latest quote per (exchange, market, ticker). `applyBatch` is the hot path (every tick of every
 * feed): it reads the ingest workers' compact batch straight through the process's market table,
 * and the tick object it builds per entry is the one stored and published, so a tick costs one
 * object, one Map.set and one bus publish. Fixed per-exchange/market maps keyed by ticker avoid
 * building a composite key string.
 */
export class QuoteBook {
  private readonly quotes = perExchange<QuoteTick>();
  private readonly volumes = perExchange<number>();
  private readonly lastTickAt = {} as Record<ExchangeName, number | undefined>;
  /** Ticks seen per exchange since start; read by the metrics collector. */
  readonly tickCounts = Object.fromEntries(EXCHANGE_NAMES.map((e) => [e, 0])) as Record<ExchangeName, number>;

  constructor(
    private readonly bus: QuoteTickBus,
    private readonly clock: Clock,
    /** What the market indexes of the batches applied here stand for. */
    readonly table: MarketTable = new MarketTable(),
  ) {}

  /**
   * Applies every entry of a tick batch (tick-batch.ts layout), in the batch's order. Entries whose
   * market index the table does not know are skipped; their number is returned (a serving-only
   * process then reads the table again).
   */
  applyBatch(batch: Float64Array): number {
    let unknown = 0;
    for (let o = 0; o + TICK_STRIDE <= batch.length; o += TICK_STRIDE) {
      const ref = this.table.at(batch[o]);
      if (ref === undefined) {
        unknown++;
        continue;
      }
      const exchangeTime = batch[o + 5];
      this.apply({
        exchange: ref.exchange,
        market: ref.market,
        ticker: ref.ticker,
        bid: batch[o + 1],
        ask: batch[o + 2],
        bidQty: batch[o + 3],
        askQty: batch[o + 4],
        exchangeTime: Number.isNaN(exchangeTime) ? null : exchangeTime,
        receivedAt: batch[o + 6],
      });
    }
    return unknown;
  }

  /** One quote (tests, and each entry of a batch). */
  apply(tick: QuoteTick): void {
    this.quotes[tick.exchange][tick.market].set(tick.ticker, tick);
    this.lastTickAt[tick.exchange] = tick.receivedAt;
    this.tickCounts[tick.exchange]++;
    this.bus.publish(tick);
  }

  get(exchange: ExchangeName, market: Market, ticker: string): QuoteTick | undefined {
    return this.quotes[exchange][market].get(ticker);
  }

  /** The `quotes` rule: no quote at all, or its last tick older than 10 s. */
  isStale(quote: QuoteTick | undefined, now: number = this.clock.now()): boolean {
    return quote === undefined || now - quote.receivedAt > QUOTE_STALE_MS;
  }

  volume(exchange: ExchangeName, market: Market, ticker: string): number | null {
    return this.volumes[exchange][market].get(ticker) ?? null;
  }

  mergeVolumes(exchange: ExchangeName, entries: readonly VolumeEntry[]): void {
    const byMarket = this.volumes[exchange];
    for (const entry of entries) byMarket[entry.market].set(entry.ticker, entry.quoteVolume);
  }

  /** Every known volume of one exchange (the ingest process relays them to API instances). */
  volumesOf(exchange: ExchangeName): VolumeEntry[] {
    const out: VolumeEntry[] = [];
    for (const market of ['SPOT', 'FUTURES'] as const) {
      for (const [ticker, quoteVolume] of this.volumes[exchange][market]) out.push({ market, ticker, quoteVolume });
    }
    return out;
  }

  lastMessageAt(exchange: ExchangeName): number | null {
    return this.lastTickAt[exchange] ?? null;
  }

  /** Every quote with its volume and staleness, judged at one instant. */
  *snapshot(filter?: { exchange?: ExchangeName; market?: Market }): IterableIterator<BookQuote> {
    const now = this.clock.now();
    for (const exchange of filter?.exchange ? [filter.exchange] : EXCHANGE_NAMES) {
      for (const market of filter?.market ? [filter.market] : (['SPOT', 'FUTURES'] as const)) {
        const volumes = this.volumes[exchange][market];
        for (const quote of this.quotes[exchange][market].values()) {
          yield bookQuote(quote, volumes.get(quote.ticker) ?? null, this.isStale(quote, now));
        }
      }
    }
  }

  countStale(now: number = this.clock.now()): number {
    let stale = 0;
    for (const exchange of EXCHANGE_NAMES) {
      for (const market of ['SPOT', 'FUTURES'] as const) {
        for (const quote of this.quotes[exchange][market].values()) if (this.isStale(quote, now)) stale++;
      }
    }
    return stale;
  }

  get size(): number {
    let n = 0;
    for (const exchange of EXCHANGE_NAMES) n += this.quotes[exchange].SPOT.size + this.quotes[exchange].FUTURES.size;
    return n;
  }
}
