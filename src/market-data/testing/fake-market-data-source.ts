import { Subject } from 'rxjs';
import type { ExchangeName, Market } from '../../market-model/exchanges.js';
import type {
  ConnectionEvent,
  FundingSettlementRead,
  FundingSnapshot,
  MarketDataSource,
  MarketListing,
  QuoteTick,
  VolumeEntry,
} from '../market-data-source.js';
import { packTicks } from '../ingest/tick-batch.js';
import { MarketTable } from '../market-table.js';
import type { DepthBook, DepthSource } from '../depth/depth-book.js';

/**
 * In-memory MarketDataSource for tests of the core and of feature modules: markets and volumes
 * are set up front, ticks and connection events are pushed by the test. A pushed tick crosses as a one-entry
 * batch, as a worker's would, its market indexed in this source's table on first use.
 */
export class FakeMarketDataSource implements MarketDataSource, DepthSource {
  readonly batchSubject = new Subject<Float64Array>();
  readonly eventSubject = new Subject<ConnectionEvent>();
  readonly batches = this.batchSubject.asObservable();
  readonly marketTable = new MarketTable();
  readonly connectionEvents = this.eventSubject.asObservable();
  readonly markets = new Map<ExchangeName, MarketListing[]>();
  readonly volumes = new Map<ExchangeName, VolumeEntry[]>();
  /** Funding per exchange; an Error makes that exchange's fetch reject (collector fault tests). */
  readonly funding = new Map<ExchangeName, FundingSnapshot[] | Error>();
  fundingFetches = 0;
  /** Settled funding per `exchange|ticker`, served from `since` on; an Error rejects. */
  readonly fundingHistory = new Map<string, FundingSettlementRead[] | Error>();
  readonly historyFetches: { exchange: ExchangeName; ticker: string; since: number }[] = [];
  readonly watches: { exchange: ExchangeName; market: Market; tickers: string[] }[] = [];
  volumeFetches = 0;
  closed = false;
  readonly bookSubject = new Subject<DepthBook>();
  readonly books = this.bookSubject.asObservable();
  /** The latest held set per `exchange|market` (empty arrays kept: a release is a call too). */
  readonly heldBooks = new Map<string, string[]>();

  listMarkets(exchange: ExchangeName): Promise<MarketListing[]> {
    return Promise.resolve(this.markets.get(exchange) ?? []);
  }

  fetchVolumes(exchange: ExchangeName): Promise<VolumeEntry[]> {
    this.volumeFetches++;
    return Promise.resolve(this.volumes.get(exchange) ?? []);
  }

  fetchFundingRates(exchange: ExchangeName): Promise<FundingSnapshot[]> {
    this.fundingFetches++;
    const funding = this.funding.get(exchange) ?? [];
    return funding instanceof Error ? Promise.reject(funding) : Promise.resolve(funding);
  }

  fetchFundingHistory(exchange: ExchangeName, ticker: string, since: number): Promise<FundingSettlementRead[]> {
    this.historyFetches.push({ exchange, ticker, since });
    const history = this.fundingHistory.get(`${exchange}|${ticker}`) ?? [];
    return history instanceof Error ? Promise.reject(history) : Promise.resolve(history.filter((s) => s.settledAt >= since));
  }

  watch(exchange: ExchangeName, market: Market, tickers: readonly string[]): void {
    this.watches.push({ exchange, market, tickers: [...tickers] });
  }

  holdBooks(exchange: ExchangeName, market: Market, tickers: readonly string[]): void {
    this.heldBooks.set(`${exchange}|${market}`, [...tickers]);
  }

  /** A book update, as an ingest worker would report it. */
  pushBook(book: DepthBook): void {
    this.bookSubject.next(book);
  }

  push(tick: QuoteTick): void {
    const index = this.marketTable.indexOf(tick);
    this.batchSubject.next(packTicks([{ ...tick, index }]));
  }

  emit(event: ConnectionEvent): void {
    this.eventSubject.next(event);
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}
