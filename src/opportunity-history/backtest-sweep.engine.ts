import { sweepFigures } from '../common/trade-metrics/metrics.engine.js';
import { atOrAboveEach, BacktestEngine, type BacktestSample, type SpreadBasis } from './backtest.engine.js';
import { backtestPeriod } from './backtest-report.js';
import type { SweepSortKey } from './sweep-params.js';

export interface SweepParams {
  basis: SpreadBasis;
  capital: number;
  intervalMs: number;
  thresholds: readonly number[];
  transferMinutes: readonly number[];
}

export interface SweepRow {
  threshold: number;
  transferMinutes: number;
  trades: number;
  netUsd: number;
  maxDrawdownUsd: number;
  sharpe: number | null;
}

interface Combination {
  threshold: number;
  transferMinutes: number;
  engine: BacktestEngine;
}

/**
 * Backtests of one route for every threshold × transfer time, in ONE walk over the samples:
 * each sample is tested once per threshold and that verdict is pushed to the engines of every
 * transfer time. Each combination's engine is the route backtest's own, so a row is what the
 * backtest with those parameters answers.
 */
export class BacktestSweep {
  private readonly ladders: { threshold: number; engines: BacktestEngine[] }[];
  private readonly all: Combination[] = [];
  /** Per threshold, whether the current sample is at or above it. */
  private readonly verdicts: boolean[] = [];
  /**
   * Per threshold, whether its engines were last pushed a sample below it. Such a push closes
   * every engine's window, and with no window open a further sample below the threshold changes
   * nothing in an engine (gaps matter only inside a window, and the next sample at or above it
   * sets the engine's clock again), so those samples are not pushed to them at all.
   */
  private readonly idle: boolean[] = [];

  constructor(private readonly params: SweepParams) {
    this.ladders = params.thresholds.map((threshold) => {
      const engines = params.transferMinutes.map((transferMinutes) => {
        const engine = new BacktestEngine({ basis: params.basis, capital: params.capital, intervalMs: params.intervalMs, threshold, transferMinutes });
        this.all.push({ threshold, transferMinutes, engine });
        return engine;
      });
      return { threshold, engines };
    });
  }

  /** The lowest threshold: a read that skips rows by it skips only rows every combination skips. */
  get lowestThreshold(): number {
    return Math.min(...this.params.thresholds);
  }

  push(sample: BacktestSample): void {
    atOrAboveEach(sample, this.params.basis, this.params.capital, this.params.thresholds, this.verdicts);
    for (let i = 0; i < this.ladders.length; i++) {
      const above = this.verdicts[i] === true;
      if (!above && this.idle[i] === true) continue;
      this.idle[i] = !above;
      for (const engine of (this.ladders[i] as { engines: BacktestEngine[] }).engines) engine.pushTested(sample, above);
    }
  }

  combinations(): readonly Combination[] {
    return this.all;
  }

  /** One combination's row, its metrics over the look-back `range` as the backtest computes them. */
  rowOf(combination: Combination, range: { from: Date; to: Date }): SweepRow {
    const result = combination.engine.finish();
    const trades = combination.engine.closedTrades();
    const figures = sweepFigures(trades, this.params.capital, backtestPeriod(trades, range));
    return {
      threshold: combination.threshold, transferMinutes: combination.transferMinutes,
      trades: result.trades, netUsd: result.netUsd, ...figures,
    };
  }
}

/** Best first: most netUsd, most trades, highest sharpe (null last), or least maxDrawdownUsd; ties by threshold, then transfer time. */
export function rankSweep(rows: SweepRow[], key: SweepSortKey): SweepRow[] {
  const score = (row: SweepRow): number => {
    if (key === 'maxDrawdownUsd') return -row.maxDrawdownUsd;
    return row[key] ?? Number.NEGATIVE_INFINITY;
  };
  return [...rows].sort((a, b) => score(b) - score(a) || a.threshold - b.threshold || a.transferMinutes - b.transferMinutes);
}
