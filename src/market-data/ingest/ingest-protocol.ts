import type { ExchangeCredentials } from '../../config/exchange-credentials.js';
import type { ExchangeUrlOverrides } from '../../config/exchange-urls.js';
import type { BackoffPolicy } from '../ccxt/backoff.js';
import type { ExchangeName, Market } from '../../market-model/exchanges.js';
import type { ConnectionEvent } from '../market-data-source.js';
import type { HeldBookEntry } from '../depth/depth-feeds.js';
import type { BatchPolicy } from './tick-batch.js';

/**
 * Messages between the serving thread and an ingest worker. Everything but tick batches is
 * rare (start-up, timers, state changes) and crosses as structured clones; tick batches cross
 * as transferred Float64Array buffers (tick-batch.ts).
 */

/** Handed to a worker at start (`workerData`). */
export interface IngestWorkerConfig {
  /** The exchanges this worker runs. */
  exchanges: ExchangeName[];
  simulatorUrl: string | null;
  /** ccxt base URLs replaced per venue (EXCHANGE_URLS and the service's defaults). */
  exchangeUrls: ExchangeUrlOverrides;
  /** Read-only API keys of this worker's exchanges, for the signed currency call only. */
  credentials: Partial<Record<ExchangeName, ExchangeCredentials>>;
  silenceTimeoutMs: number;
  backoff: BackoffPolicy;
  marketsRefreshMs: number;
  batch: BatchPolicy;
  /** How often the worker reports its counters, event-loop delay and heap. */
  statsIntervalMs: number;
}

/** The REST side of MarketDataSource, answered by the worker that owns the exchange. */
export const REST_METHODS = ['listMarkets', 'fetchVolumes', 'fetchFundingRates', 'fetchTradingFees', 'fetchNetworks', 'fetchFundingHistory'] as const;
export type RestMethod = (typeof REST_METHODS)[number];

export type ToWorker =
  /** `history` only for fetchFundingHistory: which perpetual, from when. */
  | { kind: 'call'; id: number; method: RestMethod; exchange: ExchangeName; history?: { ticker: string; since: number } }
  | { kind: 'watch'; exchange: ExchangeName; market: Market; tickers: string[]; indexes: number[] }
  /** The order books the exchange should hold in the market (depth), replacing the set sent before. */
  | { kind: 'depth'; exchange: ExchangeName; market: Market; books: HeldBookEntry[] }
  /** Forces a full garbage collection; answered with the stats after it (tests and benchmarks). */
  | { kind: 'gc'; id: number }
  | { kind: 'close' };

export interface WorkerError {
  name: string;
  message: string;
}

/** Counters since the worker started, per exchange in EXCHANGE_NAMES order. */
export interface IngestWorkerStats {
  received: number[];
  conflated: number[];
  /** Messages received on the depth (order book) sockets, per exchange. */
  bookMessages: number[];
  batches: number;
  loopDelayP50Ms: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  heapUsedBytes: number;
  /** CPU time of the worker thread since it started, in µs. */
  cpuMicros: number;
}

export type FromWorker =
  | { kind: 'result'; id: number; ok: true; value: unknown }
  | { kind: 'result'; id: number; ok: false; error: WorkerError }
  | { kind: 'ticks'; batch: Float64Array }
  /** Changed order books, transferred (depth/book-batch.ts). */
  | { kind: 'books'; batch: Float64Array }
  | { kind: 'state'; event: ConnectionEvent }
  | { kind: 'stats'; stats: IngestWorkerStats }
  | { kind: 'closed' };
