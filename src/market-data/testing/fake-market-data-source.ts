import { Subject } from 'rxjs';
import type { ExchangeName, Market } from '../exchanges.js';
import type {
  ConnectionEvent,
  FundingSnapshot,
  MarketDataSource,
  MarketListing,
  QuoteTick,
  VolumeEntry,
} from '../market-data-source.js';

/**
 * In-memory MarketDataSource for tests of the core and of feature modules: markets and volumes
 * are set up front, ticks and connection events are pushed by the test.
 */
export class FakeMarketDataSource implements MarketDataSource {
  readonly tickSubject = new Subject<QuoteTick>();
  readonly eventSubject = new Subject<ConnectionEvent>();
  readonly ticks = this.tickSubject.asObservable();
  readonly connectionEvents = this.eventSubject.asObservable();
  readonly markets = new Map<ExchangeName, MarketListing[]>();
  readonly volumes = new Map<ExchangeName, VolumeEntry[]>();
  /** Funding per exchange; an Error makes that exchange's fetch reject (collector fault tests). */
  readonly funding = new Map<ExchangeName, FundingSnapshot[] | Error>();
  fundingFetches = 0;
  readonly watches: { exchange: ExchangeName; market: Market; tickers: string[] }[] = [];
  volumeFetches = 0;
  closed = false;

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

  watch(exchange: ExchangeName, market: Market, tickers: readonly string[]): void {
    this.watches.push({ exchange, market, tickers: [...tickers] });
  }

  push(tick: QuoteTick): void {
    this.tickSubject.next(tick);
  }

  emit(event: ConnectionEvent): void {
    this.eventSubject.next(event);
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}
