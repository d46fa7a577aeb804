import { type Observable, Subject } from 'rxjs';
import type { BackoffPolicy } from '../ccxt/backoff.js';
import type { Clock } from '../clock.js';
import { EXCHANGE_NAMES, type ExchangeName, type Market } from '../../market-model/exchanges.js';
import type {
  ConnectionEvent,
  CurrencyNetwork,
  FundingSettlementRead,
  FundingSnapshot,
  MarketDataSource,
  MarketListing,
  TradingFee,
  VolumeEntry,
} from '../market-data-source.js';
import { MarketTable } from '../market-table.js';
import type { IngestWorkerConfig, IngestWorkerStats, RestMethod } from './ingest-protocol.js';
import { IngestWorker } from './ingest-worker.handle.js';
import { forEachBook } from '../depth/book-batch.js';
import type { DepthBook, DepthSource } from '../depth/depth-book.js';
import type { WorkerScript } from './worker-script.js';

/**
 * Young generation of each ingest worker, in MB. ccxt allocates a few KB per message (the parsed
 * update, its `info`, strings); with V8's default young generation (16 MB) those objects outlive
 * a scavenge, are promoted and die in the old generation, whose collections then cost more CPU
 * than the rest of the worker's own work. 96 MB was the first choice; 48 MB costs about 4 % more
 * CPU at 3,020 markets and saves about 45 MB of RSS (two semi-spaces of 16 MB instead of 32:
 * BENCHMARKS.md, "Service memory").
 */
export const WORKER_YOUNG_GENERATION_MB = 48;

export interface WorkerSourceOptions {
  /** Worker threads; the exchanges are spread over them round-robin. */
  workers: number;
  /** Old-generation limit of each worker, MB (INGEST_WORKER_HEAP_MB). */
  heapMb: number;
  exchanges: readonly ExchangeName[];
  /** Everything a worker needs but its exchanges and their keys. */
  worker: Omit<IngestWorkerConfig, 'exchanges' | 'credentials'>;
  credentials: IngestWorkerConfig['credentials'];
  script: WorkerScript;
  clock: Clock;
  restart: BackoffPolicy;
  stableAfterMs?: number;
  closeTimeoutMs?: number;
}

/** What the ingest workers report, summed per exchange (metrics, tests, benchmarks). */
export interface IngestCounters {
  received: Record<ExchangeName, number>;
  conflated: Record<ExchangeName, number>;
  /** Messages received on the depth sockets (book updates). */
  bookMessages: Record<ExchangeName, number>;
  workers: (IngestWorkerStats & { exchanges: readonly ExchangeName[]; restarts: number; up: boolean })[];
}

/**
 * MarketDataSource whose exchanges run in worker threads: the serving thread keeps the market
 * table (indexes assigned as markets are watched) and passes each transferred batch on as it
 * came; the workers own every ccxt client, REST and websocket alike. A worker that dies is restarted by its IngestWorker; its
 * exchanges' connections show disconnected until the new worker reconnects them.
 */
export class WorkerMarketDataSource implements MarketDataSource, DepthSource {
  private readonly batchSubject = new Subject<Float64Array>();
  private readonly eventSubject = new Subject<ConnectionEvent>();
  readonly batches: Observable<Float64Array> = this.batchSubject.asObservable();
  readonly connectionEvents: Observable<ConnectionEvent> = this.eventSubject.asObservable();
  readonly marketTable = new MarketTable();
  private readonly workers: IngestWorker[];
  private readonly byExchange = new Map<ExchangeName, IngestWorker>();
  /** Last state per connection id, so a dead worker's connections can be reported down. */
  private readonly connections = new Map<string, ConnectionEvent>();
  private readonly stats = new Map<IngestWorker, IngestWorkerStats>();
  private readonly bookSubject = new Subject<DepthBook>();
  /** Changed order books of the held routes' legs, as the workers report them. */
  readonly books: Observable<DepthBook> = this.bookSubject.asObservable();
  /** Book ids: the serving thread's table of (exchange, market, ticker), as the market table is for quotes. */
  private readonly bookTable: { exchange: ExchangeName; market: Market; ticker: string }[] = [];
  private readonly bookIds = new Map<string, number>();
  private closed = false;

  constructor(private readonly options: WorkerSourceOptions) {
    const count = Math.max(1, Math.min(options.workers, options.exchanges.length));
    const groups: ExchangeName[][] = Array.from({ length: count }, () => []);
    options.exchanges.forEach((exchange, i) => groups[i % count]?.push(exchange));
    this.workers = groups.map((exchanges) => this.createWorker(exchanges));
    for (const worker of this.workers) for (const exchange of worker.exchanges) this.byExchange.set(exchange, worker);
  }

  listMarkets(exchange: ExchangeName): Promise<MarketListing[]> {
    return this.call<MarketListing[]>('listMarkets', exchange);
  }

  fetchVolumes(exchange: ExchangeName): Promise<VolumeEntry[]> {
    return this.call<VolumeEntry[]>('fetchVolumes', exchange);
  }

  fetchFundingRates(exchange: ExchangeName): Promise<FundingSnapshot[]> {
    return this.call<FundingSnapshot[]>('fetchFundingRates', exchange);
  }

  fetchFundingHistory(exchange: ExchangeName, ticker: string, since: number): Promise<FundingSettlementRead[]> {
    return this.call<FundingSettlementRead[]>('fetchFundingHistory', exchange, { ticker, since });
  }

  fetchTradingFees(exchange: ExchangeName): Promise<TradingFee[]> {
    return this.call<TradingFee[]>('fetchTradingFees', exchange);
  }

  fetchNetworks(exchange: ExchangeName): Promise<CurrencyNetwork[]> {
    return this.call<CurrencyNetwork[]>('fetchNetworks', exchange);
  }

  watch(exchange: ExchangeName, market: Market, tickers: readonly string[]): void {
    const worker = this.byExchange.get(exchange);
    if (this.closed || !worker || tickers.length === 0) return;
    const indexes = tickers.map((ticker) => this.marketTable.indexOf({ exchange, market, ticker }));
    worker.watch(exchange, market, [...tickers], indexes);
  }

  holdBooks(exchange: ExchangeName, market: Market, tickers: readonly string[]): void {
    const worker = this.byExchange.get(exchange);
    if (this.closed || !worker) return;
    const books = tickers.map((ticker) => {
      const key = `${exchange}|${market}|${ticker}`;
      let id = this.bookIds.get(key);
      if (id === undefined) this.bookIds.set(key, (id = this.bookTable.push({ exchange, market, ticker }) - 1));
      return { id, ticker };
    });
    worker.holdBooks(exchange, market, books);
  }

  /** The worker threads, for diagnostics (and the test that kills one). */
  get ingestWorkers(): readonly IngestWorker[] {
    return this.workers;
  }

  ingestCounters(): IngestCounters {
    const received = Object.fromEntries(EXCHANGE_NAMES.map((e) => [e, 0])) as Record<ExchangeName, number>;
    const conflated = { ...received };
    const bookMessages = { ...received };
    const workers: IngestCounters['workers'] = [];
    for (const worker of this.workers) {
      const s = this.stats.get(worker);
      if (!s) continue;
      EXCHANGE_NAMES.forEach((e, i) => {
        received[e] += s.received[i] ?? 0;
        conflated[e] += s.conflated[i] ?? 0;
        bookMessages[e] += s.bookMessages[i] ?? 0;
      });
      workers.push({ ...s, exchanges: worker.exchanges, restarts: worker.restarts, up: worker.thread !== null });
    }
    return { received, conflated, bookMessages, workers };
  }

  /** A full GC in every worker; resolves with each worker's stats after it. */
  collectGarbage(): Promise<IngestWorkerStats[]> {
    return Promise.all(this.workers.map((w) => w.collectGarbage()));
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.workers.map((w) => w.close()));
    this.batchSubject.complete();
    this.bookSubject.complete();
    this.eventSubject.complete();
  }

  private async call<T>(method: RestMethod, exchange: ExchangeName, history?: { ticker: string; since: number }): Promise<T> {
    const worker = this.byExchange.get(exchange);
    if (!worker) throw new Error(`${exchange} is not a configured exchange`);
    return (await worker.call(method, exchange, history)) as T;
  }

  private createWorker(exchanges: ExchangeName[]): IngestWorker {
    const credentials = Object.fromEntries(
      exchanges.flatMap((e) => (this.options.credentials[e] ? [[e, this.options.credentials[e]]] : [])),
    ) as IngestWorkerConfig['credentials'];
    const worker: IngestWorker = new IngestWorker({
      config: { ...this.options.worker, exchanges, credentials },
      script: this.options.script,
      clock: this.options.clock,
      restart: this.options.restart,
      stableAfterMs: this.options.stableAfterMs ?? 30_000,
      closeTimeoutMs: this.options.closeTimeoutMs ?? 5_000,
      heap: { oldGenerationMb: this.options.heapMb, youngGenerationMb: WORKER_YOUNG_GENERATION_MB },
      hooks: {
        onBatch: (batch) => this.batchSubject.next(batch),
        onBooks: (batch) => this.applyBooks(batch),
        onState: (event) => this.onState(event),
        onStats: (stats) => this.stats.set(worker, stats),
        onExit: (reason) => this.onWorkerExit(exchanges, reason),
      },
    });
    return worker;
  }

  private applyBooks(batch: Float64Array): void {
    forEachBook(batch, (id, receivedAt, bids, asks) => {
      const entry = this.bookTable[id];
      if (entry) this.bookSubject.next({ exchange: entry.exchange, market: entry.market, ticker: entry.ticker, bids, asks, receivedAt });
    });
  }

  private onState(event: ConnectionEvent): void {
    if (event.state === 'rest-banned') {
      this.eventSubject.next(event);
      return;
    }
    if (event.state === 'closed') this.connections.delete(event.connectionId);
    else this.connections.set(event.connectionId, event);
    this.eventSubject.next(event);
  }

  /** The worker's connections went down with it; the restarted worker dials them again. */
  private onWorkerExit(exchanges: readonly ExchangeName[], reason: string): void {
    if (this.closed) return;
    for (const event of [...this.connections.values()]) {
      if (!exchanges.includes(event.exchange) || event.state === 'disconnected') continue;
      this.onState({ ...event, state: 'disconnected', at: this.options.clock.now(), reason: `ingest worker ${reason}` });
    }
  }
}
