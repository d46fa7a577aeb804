import type { ClosedTrade } from '../common/trade-metrics/trade.js';
import { AMOUNT_DECIMALS, AmountSum, PERCENT_DECIMALS, amount, dec, isProfitable, percent, roundAmount, roundFast, roundPercent, roundsAtLeast, thresholdFast, type Dec } from '../common/money/money.js';

/**
 * The route backtest of the `backtest` rule, as a pure streaming computation: samples are pushed one by
 * one in ascending time and only the open window's running state is kept, so a 90-day look-back
 * is read page by page and never held in memory.
 */

export type SpreadBasis = 'net' | 'gross';
export const SPREAD_BASES: readonly SpreadBasis[] = ['net', 'gross'];

/** What the backtest needs of one recorded sample (rules: recorders). `time` is Unix milliseconds. */
export interface BacktestSample {
  time: number;
  grossSpreadPercent: number;
  buyFeePercent: number;
  sellFeePercent: number;
  withdrawalFeeUsd: number;
  feesEstimated: boolean;
  executable: boolean;
}

export interface BacktestParams {
  basis: SpreadBasis;
  /** Percent; a sample is in a window when its spread on the basis is at or above it. */
  threshold: number;
  capital: number;
  transferMinutes: number;
  /** HISTORY_INTERVAL_MS: a gap longer than 3 intervals ends a window. */
  intervalMs: number;
}

export type OperationStatus = 'completed' | 'expired' | 'unresolved';

export interface BacktestOperation {
  entry: number;
  arrival: number;
  status: OperationStatus;
  entrySpread: number;
  /** Null (as the three below) while unresolved. */
  exitGrossSpread: number | null;
  netPercent: number | null;
  grossUsd: number | null;
  netUsd: number | null;
  costsEstimated: boolean;
}

export interface BacktestResult {
  trades: number;
  completed: number;
  expired: number;
  unresolved: number;
  skippedBusy: number;
  skippedInfeasible: number;
  estimatedCosts: number;
  grossUsd: number;
  netUsd: number;
  netPercent: number;
  winRate: number;
  history: BacktestOperation[];
}

export const HISTORY_LIMIT = 200;
const GAP_INTERVALS = 3;

/**
 * Spread on a basis (rules: windows), in doubles: gross as recorded; net also pays both taker fees and the
 * withdrawal fee as a share of the capital. The per-sample threshold test runs on it (see
 * `atOrAboveThreshold`); what is reported comes from `exactSpreadOnBasis`.
 */
export function spreadOnBasis(sample: BacktestSample, basis: SpreadBasis, capital: number): number {
  if (basis === 'gross') return sample.grossSpreadPercent;
  return (
    sample.grossSpreadPercent -
    sample.buyFeePercent -
    sample.sellFeePercent -
    (sample.withdrawalFeeUsd / capital) * 100
  );
}

/** The magnitude of the terms of the net spread (bounds the gross one too). */
function spreadScale(sample: BacktestSample, capital: number): number {
  return Math.abs(sample.grossSpreadPercent) + sample.buyFeePercent + sample.sellFeePercent + (sample.withdrawalFeeUsd / capital) * 100;
}

/** The same spread in decimal, on the values as recorded. */
export function exactSpreadOnBasis(sample: BacktestSample, basis: SpreadBasis, capital: number): Dec {
  const gross = dec(sample.grossSpreadPercent);
  if (basis === 'gross') return gross;
  return gross.minus(sample.buyFeePercent).minus(sample.sellFeePercent).minus(dec(sample.withdrawalFeeUsd).div(capital).times(100));
}

/**
 * The `windows` rule's "spread ≥ threshold" on the spread AS SHOWN (rounded to 8 decimals), so an entrySpread
 * never reads below the threshold. Doubles decide unless the sample is within about 5e-9 of the
 * threshold; then decimal does (see thresholdFast). No allocation on the common path.
 */
export function atOrAboveThreshold(sample: BacktestSample, params: Pick<BacktestParams, 'basis' | 'threshold' | 'capital'>): boolean {
  const spread = spreadOnBasis(sample, params.basis, params.capital);
  return (
    thresholdFast(spread, spreadScale(sample, params.capital), params.threshold, PERCENT_DECIMALS) ??
    roundsAtLeast(exactSpreadOnBasis(sample, params.basis, params.capital), params.threshold, PERCENT_DECIMALS)
  );
}

/**
 * `atOrAboveThreshold` for several thresholds at once, into `out`: the spread and its scale are
 * computed once per sample (a sweep tests each sample against up to 20 thresholds).
 */
export function atOrAboveEach(sample: BacktestSample, basis: SpreadBasis, capital: number, thresholds: readonly number[], out: boolean[]): void {
  const spread = spreadOnBasis(sample, basis, capital);
  const scale = spreadScale(sample, capital);
  for (let i = 0; i < thresholds.length; i++) {
    const threshold = thresholds[i];
    out[i] = thresholdFast(spread, scale, threshold, PERCENT_DECIMALS) ?? roundsAtLeast(exactSpreadOnBasis(sample, basis, capital), threshold, PERCENT_DECIMALS);
  }
}

type OperationFigures = { [K in 'exitGrossSpread' | 'grossUsd' | 'netUsd' | 'netPercent']: number };

export interface Entry {
  time: number;
  arrival: number;
  /** Rounded once, as reported. */
  spread: number;
  /** The entry sample's fees, for the operation's figures. */
  buyFeePercent: number;
  sellFeePercent: number;
  withdrawalFeeUsd: number;
  feesEstimated: boolean;
}

/** The running state of the window being walked; its samples are not kept. */
export interface OpenWindow {
  lastTime: number;
  hasExecutable: boolean;
  entry: Entry | null;
  /** Gross spread of the window's last sample at or before arrival. */
  exitGross: number;
  /** The window has a sample at or after arrival. */
  reachedArrival: boolean;
}

export class BacktestEngine {
  private readonly gapMs: number;
  private readonly transferMs: number;
  private previousTime: number | null = null;
  private window: OpenWindow | null = null;
  /** The moment the capital is back from its last operation (free at the start). */
  private freeAt = Number.NEGATIVE_INFINITY;
  private readonly result: BacktestResult = {
    trades: 0, completed: 0, expired: 0, unresolved: 0, skippedBusy: 0, skippedInfeasible: 0,
    estimatedCosts: 0, grossUsd: 0, netUsd: 0, netPercent: 0, winRate: 0, history: [],
  };
  private wins = 0;
  /** Σ of the settled operations' grossUsd and netUsd as reported (exact sums, see AmountSum). */
  private readonly grossSum = new AmountSum();
  private readonly netSum = new AmountSum();
  private finished = false;
  /** Every settled operation as a trade (capital out at entry, back at arrival), for the metrics. */
  private readonly trades: ClosedTrade[] = [];

  constructor(private readonly params: BacktestParams) {
    this.gapMs = GAP_INTERVALS * params.intervalMs;
    this.transferMs = params.transferMinutes * 60_000;
  }

  /** Samples of one route, in strictly ascending time. */
  push(sample: BacktestSample): void {
    this.pushTested(sample, atOrAboveThreshold(sample, this.params));
  }

  /**
   * The same, with the threshold test already made by the caller (`atOrAboveThreshold` with this
   * engine's basis, threshold and capital): a sweep tests each sample once per threshold and
   * feeds the verdict to the engines of every transfer time.
   */
  pushTested(sample: BacktestSample, above: boolean): void {
    if (this.finished) throw new Error('BacktestEngine: push after finish');
    if (this.previousTime !== null && sample.time <= this.previousTime) {
      throw new Error('BacktestEngine: samples must be in ascending time order');
    }
    if (this.window && this.previousTime !== null && sample.time - this.previousTime > this.gapMs) {
      this.closeWindow(false);
    }
    this.previousTime = sample.time;
    if (!above) {
      if (this.window) this.closeWindow(false);
      return;
    }
    this.window ??= { lastTime: sample.time, hasExecutable: false, entry: null, exitGross: 0, reachedArrival: false };
    this.extend(this.window, sample);
  }

  /** When the capital is back from the last operation (entries wait for it). */
  get capitalFreeAt(): number {
    return this.freeAt;
  }

  /**
   * For a caller that walks the windows itself (BacktestSweep, one walk for every transfer time
   * of a threshold): the entry at this sample, as `push` would make it (the capital leaves).
   */
  enterAt(sample: BacktestSample): Entry {
    return this.enter(sample);
  }

  /** For such a caller: a window it walked ends, recorded as `push` would record it. */
  endWindow(window: OpenWindow, holdsLastSample: boolean): void {
    this.window = window;
    this.closeWindow(holdsLastSample);
  }

  /** Ends the walk; a window still open holds the last sample of the look-back. */
  finish(): BacktestResult {
    if (!this.finished) {
      if (this.window) this.closeWindow(true);
      this.finished = true;
      const settled = this.result.completed + this.result.expired;
      const netSum = this.netSum.value();
      this.result.grossUsd = roundAmount(this.grossSum.value());
      this.result.netUsd = roundAmount(netSum);
      this.result.netPercent = roundPercent(netSum.div(this.params.capital).times(100));
      this.result.winRate = settled === 0 ? 0 : percent(dec(this.wins).div(settled).times(100), 'winRate');
    }
    return this.result;
  }

  /** The settled operations in closing order: entry → arrival, profit = netUsd as reported. */
  closedTrades(): readonly ClosedTrade[] {
    return this.trades;
  }

  private extend(window: OpenWindow, sample: BacktestSample): void {
    window.lastTime = sample.time;
    if (sample.executable) window.hasExecutable = true;
    if (!window.entry && sample.executable && sample.time >= this.freeAt) {
      window.entry = this.enter(sample);
    }
    const entry = window.entry;
    if (!entry || window.reachedArrival) return;
    if (sample.time <= entry.arrival) window.exitGross = sample.grossSpreadPercent;
    if (sample.time >= entry.arrival) window.reachedArrival = true;
  }

  private enter(sample: BacktestSample): Entry {
    const { capital, basis } = this.params;
    const spread = spreadOnBasis(sample, basis, capital);
    const arrival = sample.time + this.transferMs;
    // The capital travels from entry to arrival; it can enter the next window from then on.
    this.freeAt = arrival;
    return {
      time: sample.time,
      arrival,
      spread: roundFast(spread, spreadScale(sample, capital), PERCENT_DECIMALS) ?? percent(exactSpreadOnBasis(sample, basis, capital), 'entrySpread'),
      buyFeePercent: sample.buyFeePercent,
      sellFeePercent: sample.sellFeePercent,
      withdrawalFeeUsd: sample.withdrawalFeeUsd,
      feesEstimated: sample.feesEstimated,
    };
  }

  private closeWindow(holdsLastSample: boolean): void {
    const window = this.window;
    this.window = null;
    if (!window) return;
    if (window.entry) {
      this.record(window, window.entry, holdsLastSample);
    } else if (window.lastTime < this.freeAt || window.hasExecutable) {
      // Ended in transit, or its executable samples all came before the capital was back.
      this.result.skippedBusy += 1;
    } else {
      this.result.skippedInfeasible += 1;
    }
  }

  private record(window: OpenWindow, entry: Entry, holdsLastSample: boolean): void {
    const status: OperationStatus = window.reachedArrival ? 'completed' : holdsLastSample ? 'unresolved' : 'expired';
    const result = this.result;
    result.trades += 1;
    result[status] += 1;
    if (entry.feesEstimated) result.estimatedCosts += 1;
    const operation = this.operationOf(entry, status, status === 'completed' ? window.exitGross : 0);
    if (operation.netUsd !== null && operation.grossUsd !== null) {
      this.grossSum.add(operation.grossUsd);
      this.netSum.add(operation.netUsd);
      if (isProfitable(operation.netUsd)) this.wins += 1;
      this.trades.push({ openedAt: entry.time, closedAt: entry.arrival, profitUsd: operation.netUsd });
    }
    result.history.push(operation);
    if (result.history.length > HISTORY_LIMIT) result.history.shift();
  }

  private operationOf(entry: Entry, status: OperationStatus, exitGrossSpread: number): BacktestOperation {
    // Literals, not `{ ...base, ...figures }`: one hidden class per shape (see bookQuote in quote-book.ts).
    if (status === 'unresolved') {
      return {
        entry: entry.time, arrival: entry.arrival, status, entrySpread: entry.spread, costsEstimated: entry.feesEstimated,
        exitGrossSpread: null, netPercent: null, grossUsd: null, netUsd: null,
      };
    }
    // An expired operation is closed at spread 0 and still pays its costs.
    const f = this.fastFigures(entry, exitGrossSpread) ?? this.decimalFigures(entry, exitGrossSpread);
    return {
      entry: entry.time, arrival: entry.arrival, status, entrySpread: entry.spread, costsEstimated: entry.feesEstimated,
      exitGrossSpread: f.exitGrossSpread, grossUsd: f.grossUsd, netUsd: f.netUsd, netPercent: f.netPercent,
    };
  }

  /** Thousands of operations per walk: from doubles when roundFast can answer (see journal PnL). */
  private fastFigures(entry: Entry, exitGrossSpread: number): OperationFigures | undefined {
    const { capital } = this.params;
    const grossUsd = (capital * exitGrossSpread) / 100;
    const netUsd = grossUsd - ((capital * (entry.buyFeePercent + entry.sellFeePercent)) / 100 + entry.withdrawalFeeUsd);
    const scale = (capital * (Math.abs(exitGrossSpread) + entry.buyFeePercent + entry.sellFeePercent)) / 100 + entry.withdrawalFeeUsd;
    const exit = roundFast(exitGrossSpread, exitGrossSpread, PERCENT_DECIMALS);
    const gross = roundFast(grossUsd, scale, AMOUNT_DECIMALS);
    const net = roundFast(netUsd, scale, AMOUNT_DECIMALS);
    const netPercent = roundFast((netUsd / capital) * 100, (scale / capital) * 100, PERCENT_DECIMALS);
    if (exit === undefined || gross === undefined || net === undefined || netPercent === undefined) return undefined;
    return { exitGrossSpread: exit, grossUsd: gross, netUsd: net, netPercent };
  }

  /** The definition: in decimal, rounded once; throws FigureOutOfRangeError when out of range. */
  private decimalFigures(entry: Entry, exitGrossSpread: number): OperationFigures {
    const { capital } = this.params;
    const exitGross = dec(exitGrossSpread);
    const costsUsd = dec(capital).times(dec(entry.buyFeePercent).plus(entry.sellFeePercent)).div(100).plus(entry.withdrawalFeeUsd);
    const grossUsd = dec(capital).times(exitGross).div(100);
    const netUsd = grossUsd.minus(costsUsd);
    return {
      exitGrossSpread: percent(exitGross, 'exitGrossSpread'),
      grossUsd: amount(grossUsd, 'grossUsd'),
      netUsd: amount(netUsd, 'netUsd'),
      netPercent: percent(netUsd.div(capital).times(100), 'netPercent'),
    };
  }
}

/** Convenience for callers that already hold the samples (tests, small look-backs). */
export function runBacktest(samples: Iterable<BacktestSample>, params: BacktestParams): BacktestResult {
  const engine = new BacktestEngine(params);
  for (const sample of samples) engine.push(sample);
  return engine.finish();
}
