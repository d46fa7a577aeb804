import { sweepFigures } from '../common/trade-metrics/metrics.engine.js';
import { atOrAboveEach, BacktestEngine, type BacktestSample, type Entry, type OpenWindow, type SpreadBasis } from './backtest.engine.js';
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

const GAP_INTERVALS = 3;

/**
 * One threshold's windows, walked once for the engines of every transfer time. A window (a run
 * of samples at or above the threshold without a gap) is the same for every transfer time; only
 * the entries differ (each engine's capital comes back at its own time). So the ladder keeps the
 * window and visits an engine only at a sample where something can happen to it: the first
 * executable sample once its capital is back (the entry), and the first at or after its arrival
 * (whose exit is the last sample at or before the arrival). Every other sample costs the ladder
 * one comparison, not one push per engine. Windows end and are recorded by each engine's own
 * code (`enterAt`, `endWindow`), so a row is what the backtest with those parameters answers.
 */
class Ladder {
  private open = false;
  private lastTime = Number.NEGATIVE_INFINITY;
  private hasExecutable = false;
  private prevGross = 0;
  /** The earliest sample time at which some engine has something to do (+∞: none until the window ends). */
  private wake = Number.POSITIVE_INFINITY;
  private readonly entries: (Entry | null)[];
  private readonly reached: boolean[];
  private readonly exitGross: number[];

  constructor(
    readonly threshold: number,
    readonly engines: readonly BacktestEngine[],
    private readonly gapMs: number,
  ) {
    this.entries = engines.map(() => null);
    this.reached = engines.map(() => false);
    this.exitGross = engines.map(() => 0);
  }

  push(sample: BacktestSample, above: boolean): void {
    if (this.open && sample.time - this.lastTime > this.gapMs) this.close(false);
    if (!above) {
      if (this.open) this.close(false);
      return;
    }
    if (!this.open) this.openWindow();
    this.lastTime = sample.time;
    if (sample.executable) this.hasExecutable = true;
    if (sample.time >= this.wake) this.visit(sample);
    this.prevGross = sample.grossSpreadPercent;
  }

  /** The look-back ends: a window still open holds its last sample. */
  finish(): void {
    if (this.open) this.close(true);
  }

  private openWindow(): void {
    this.open = true;
    this.hasExecutable = false;
    let wake = Number.POSITIVE_INFINITY;
    for (let k = 0; k < this.engines.length; k++) {
      this.entries[k] = null;
      this.reached[k] = false;
      this.exitGross[k] = 0;
      wake = Math.min(wake, (this.engines[k]).capitalFreeAt);
    }
    this.wake = wake;
  }

  private visit(sample: BacktestSample): void {
    const t = sample.time;
    let wake = Number.POSITIVE_INFINITY;
    for (let k = 0; k < this.engines.length; k++) {
      let entry = this.entries[k] ?? null;
      if (entry === null) {
        const engine = this.engines[k];
        if (!sample.executable || t < engine.capitalFreeAt) {
          wake = Math.min(wake, engine.capitalFreeAt);
          continue;
        }
        entry = this.entries[k] = engine.enterAt(sample);
      }
      if (this.reached[k]) continue;
      if (t >= entry.arrival) {
        this.reached[k] = true;
        // The exit is the last sample at or before the arrival: this one, or the one before it
        // (the window's, at or after the entry).
        this.exitGross[k] = t === entry.arrival ? sample.grossSpreadPercent : this.prevGross;
      } else {
        wake = Math.min(wake, entry.arrival);
      }
    }
    this.wake = wake;
  }

  private close(holdsLastSample: boolean): void {
    this.open = false;
    this.wake = Number.POSITIVE_INFINITY;
    for (let k = 0; k < this.engines.length; k++) {
      const window: OpenWindow = {
        lastTime: this.lastTime, hasExecutable: this.hasExecutable, entry: this.entries[k] ?? null,
        exitGross: this.exitGross[k] ?? 0, reachedArrival: this.reached[k] === true,
      };
      (this.engines[k]).endWindow(window, holdsLastSample);
    }
  }
}

/**
 * Backtests of one route for every threshold × transfer time, in ONE walk over the samples:
 * each sample is tested once per threshold, and each threshold's ladder walks its windows once
 * for the engines of every transfer time. Each combination's engine is the route backtest's own,
 * so a row is what the backtest with those parameters answers.
 */
export class BacktestSweep {
  private readonly ladders: Ladder[];
  private readonly all: Combination[] = [];
  /** Per threshold, whether the current sample is at or above it. */
  private readonly verdicts: boolean[] = [];
  private previousTime = Number.NEGATIVE_INFINITY;
  private finished = false;

  constructor(private readonly params: SweepParams) {
    this.ladders = params.thresholds.map((threshold) => {
      const engines = params.transferMinutes.map((transferMinutes) => {
        const engine = new BacktestEngine({ basis: params.basis, capital: params.capital, intervalMs: params.intervalMs, threshold, transferMinutes });
        this.all.push({ threshold, transferMinutes, engine });
        return engine;
      });
      return new Ladder(threshold, engines, GAP_INTERVALS * params.intervalMs);
    });
  }

  /** The lowest threshold: a read that skips rows by it skips only rows every combination skips. */
  get lowestThreshold(): number {
    return Math.min(...this.params.thresholds);
  }

  /** Samples of one route, in strictly ascending time. */
  push(sample: BacktestSample): void {
    if (this.finished) throw new Error('BacktestSweep: push after finish');
    if (sample.time <= this.previousTime) throw new Error('BacktestSweep: samples must be in ascending time order');
    this.previousTime = sample.time;
    atOrAboveEach(sample, this.params.basis, this.params.capital, this.params.thresholds, this.verdicts);
    for (let i = 0; i < this.ladders.length; i++) (this.ladders[i]).push(sample, this.verdicts[i] === true);
  }

  /** Ends the walk: windows still open hold the last sample of the look-back. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    for (const ladder of this.ladders) ladder.finish();
  }

  combinations(): readonly Combination[] {
    return this.all;
  }

  /** One combination's row, its metrics over the look-back `range` as the backtest computes them. */
  rowOf(combination: Combination, range: { from: Date; to: Date }): SweepRow {
    this.finish();
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
