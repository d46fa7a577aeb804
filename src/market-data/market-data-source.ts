import type { Observable } from 'rxjs';
import type { ExchangeName, Market } from '../market-model/exchanges.js';
import type { IngestCounters } from './ingest/worker-market-data.source.js';
import type { MarketTable } from './market-table.js';

/** One best bid/ask update, normalised (rules: tickers): the only shape feature modules ever see. */
export interface QuoteTick {
  readonly exchange: ExchangeName;
  readonly market: Market;
  /** Canonical `BASE-QUOTE`. */
  readonly ticker: string;
  readonly bid: number;
  readonly ask: number;
  readonly bidQty: number;
  readonly askQty: number;
  /** Exchange timestamp in Unix ms, null when the exchange sent none. */
  readonly exchangeTime: number | null;
  /** Local receive time in Unix ms: staleness (rules: staleness) is judged on this. */
  readonly receivedAt: number;
}

/**
 * `refused`: not a change of the connection but of one of its symbols, which the exchange
 * refused or delisted; `ticker` names it and the connection carries on without it. `listed`: such a
 * symbol trades again and a new feed watches it.
 */
/** `rest-banned`: the venue banned the exchange's REST calls (429/418/403) until `restBannedUntil`; no connection is meant. */
export type ConnectionState = 'connecting' | 'connected' | 'disconnected' | 'closed' | 'refused' | 'listed' | 'rest-banned';

/**
 * The `reason` of a connection closed because it sent no quote for MARKET_SILENCE_TIMEOUT_MS: its
 * dial had succeeded (a dial that cannot connect fails first, with its own error, on ccxt's 10 s
 * connect timeout below the default silence timeout).
 */
export const SILENCE_REASON = 'silence';

/**
 * A change of state of one feed connection. `connectionId` is stable across reconnects of the
 * same subscription chunk, so consumers can count reconnects and tell when all are up.
 */
export interface ConnectionEvent {
  readonly exchange: ExchangeName;
  readonly market: Market;
  readonly connectionId: string;
  readonly state: ConnectionState;
  readonly at: number;
  /** Why a connection went down (error message, `silence`, `shutdown`), or why a symbol was refused. */
  readonly reason?: string;
  /** The refused or listed-again symbol (states `refused` and `listed` only), canonical `BASE-QUOTE`. */
  readonly ticker?: string;
  /** State `rest-banned` only: no REST call to the exchange until then (Unix ms). */
  readonly restBannedUntil?: number;
}

export interface MarketListing {
  readonly market: Market;
  readonly ticker: string;
  /** Set when the market is listed but left out of the feeds, with why (a lot of unknown size). */
  readonly leftOut?: string;
}

/** 24 h volume in the quote currency. */
export interface VolumeEntry {
  readonly market: Market;
  readonly ticker: string;
  readonly quoteVolume: number;
}

/**
 * Funding of one USDT perpetual as the exchange reports it (rules: funding). `intervalSource` is
 * `exchange` when the exchange states the interval, else `unavailable` (the funding collector
 * may then derive one from consecutive funding times).
 */
export interface FundingSnapshot {
  /** The exchange's own contract name (`BTCUSDT`, `BTC-USDT-SWAP`, `BTC_USDT`). */
  readonly contract: string;
  /** Canonical `BASE-QUOTE`. */
  readonly ticker: string;
  /** Fraction per interval, null when the exchange sent none. */
  readonly fundingRate: number | null;
  readonly intervalSeconds: number | null;
  readonly intervalSource: 'exchange' | 'unavailable';
  /** Unix ms of the next payment, or null. */
  readonly nextFundingTime: number | null;
  readonly markPrice: number | null;
}

/** One settled funding payment of a perpetual, as the venue's funding-history call lists it. */
export interface FundingSettlementRead {
  /** Unix ms of the payment. */
  readonly settledAt: number;
  /** Fraction per interval. */
  readonly rate: number;
  /** The mark price the venue states for the payment (binance), else null. */
  readonly markPrice: number | null;
}

/** Taker fee of one spot market, in percent (rules: recorders). */
export interface TradingFee {
  /** Canonical `BASE-QUOTE`. */
  readonly ticker: string;
  readonly takerPercent: number;
}

/** Transfer state of one currency on one network of an exchange (rules: recorders). */
export interface CurrencyNetwork {
  /** Base currency, e.g. `BTC`. */
  readonly asset: string;
  /** The exchange's network name, normalised to upper case (`ERC20`, `TRC20`, `BTC`). */
  readonly network: string;
  readonly withdrawEnabled: boolean;
  readonly depositEnabled: boolean;
  /** Withdrawal fee in base units, null when the exchange states none. */
  readonly withdrawFee: number | null;
  /** The token's contract address on this network; absent when the venue gives none (native coins, no keys). */
  readonly contract?: string;
}

/**
 * Where live market data comes from. The ccxt implementation is the only one in production;
 * tests substitute an in-memory fake. Feature modules depend on this, never on ccxt.
 */
export interface MarketDataSource {
  /**
   * Best bid/ask updates as tick batches (ingest/tick-batch.ts layout): the unit that goes on,
   * unpacked by nobody, to the quote book and to Redis. Market indexes refer to `marketTable`.
   */
  readonly batches: Observable<Float64Array>;
  /** The process's one market table; every batch's indexes are in it before the batch is emitted. */
  readonly marketTable: MarketTable;
  readonly connectionEvents: Observable<ConnectionEvent>;
  /** Spot and USDT-perpetual markets the exchange lists (cached; refreshed by the source). */
  listMarkets(exchange: ExchangeName): Promise<MarketListing[]>;
  fetchVolumes(exchange: ExchangeName): Promise<VolumeEntry[]>;
  /** Current funding of every USDT perpetual of the exchange (REST); rejects when it cannot be read. */
  fetchFundingRates(exchange: ExchangeName): Promise<FundingSnapshot[]>;
  /**
   * Settled funding of one perpetual (canonical ticker) from `since` (Unix ms), oldest first,
   * paced within the venue's limit for its funding-history call. Optional: a source without it
   * has no settled history to backfill.
   */
  fetchFundingHistory?(exchange: ExchangeName, ticker: string, since: number): Promise<FundingSettlementRead[]>;
  /**
   * Spot taker fees. Optional until every source offers them: a source without it,
   * or a market it leaves out, means the fee is unknown and the `cost-defaults` rule default applies, marked estimated.
   */
  fetchTradingFees?(exchange: ExchangeName): Promise<TradingFee[]>;
  /** Withdrawal/deposit state and fee per currency and network; optional as above. */
  fetchNetworks?(exchange: ExchangeName): Promise<CurrencyNetwork[]>;
  /** What the ingest side counted (quotes received and conflated, worker health); for metrics. */
  ingestCounters?(): IngestCounters;
  /** Starts realtime feeds for these tickers; feeds live until `close()`. */
  watch(exchange: ExchangeName, market: Market, tickers: readonly string[]): void;
  close(): Promise<void>;
}
