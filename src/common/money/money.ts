import DecimalModule, { type Decimal } from 'decimal.js';
import { AppError, ErrorCode } from '../errors/app-error.js';

/**
 * The service's ONE money rule (README "Money and percent figures"): every money and percent
 * figure is computed in decimal from the values as given, and rounded once, when it leaves the
 * engine that computes it, half away from zero, to a fixed number of decimals per kind of figure.
 * A figure out of range is an error, never a null or an Infinity.
 */

// decimal.js's types describe its CommonJS build; loaded as ESM, the default export IS the class.
const DecimalClass = DecimalModule as unknown as typeof DecimalModule.Decimal;

/** decimal.js configured for the service. Only quotients are inexact: 40 digits keep them far below any output decimal. */
export const Dec = DecimalClass.clone({ precision: 40, rounding: DecimalClass.ROUND_HALF_UP, toExpNeg: -40, toExpPos: 40 });
export type Dec = Decimal;

/** Amounts in USD/USDT (pnl, totals, fees, grossUsd): below a satoshi of any quote currency. */
export const AMOUNT_DECIMALS = 8;
/** Percentages (pnlPercentage, spreads in %, win rates, APR). */
export const PERCENT_DECIMALS = 8;
/** Per-unit price figures (a spread in price units): micro-cap tickers quote 10-12 decimals. */
export const PRICE_DECIMALS = 12;

/**
 * No figure may reach this magnitude. A JSON number is a double, which holds every value below
 * 2^53 / 100 (about 9.007e13) to the cent; ten trillion is beyond any real position.
 */
export const MAX_FIGURE = 1e13;

export const outOfRangeMessage = (figure: string): string => `${figure} is out of range (figures are limited to ±1e13)`;

/** A figure at or beyond MAX_FIGURE: answered 400 in the error shape wherever it surfaces. */
export class FigureOutOfRangeError extends AppError {
  constructor(readonly figure: string) {
    super(ErrorCode.InvalidRequest, outOfRangeMessage(figure));
    this.name = 'FigureOutOfRangeError';
  }
}

/** A double input as the decimal it was written as (its shortest round-trip form, e.g. 0.1 → "0.1"). */
export function dec(value: number): Dec {
  return new Dec(value);
}

/**
 * The rule itself: `decimals` places, half away from zero, never -0. A named `figure` is
 * range-checked (FigureOutOfRangeError names it); `null` is for totals no request can be refused for.
 */
export function roundFigure(value: Dec, figure: string | null, decimals: number): number {
  const rounded = value.toDecimalPlaces(decimals);
  if (figure !== null && (!rounded.isFinite() || rounded.abs().gte(MAX_FIGURE))) throw new FigureOutOfRangeError(figure);
  const n = rounded.toNumber();
  return n === 0 ? 0 : n;
}

export const amount = (value: Dec, figure: string): number => roundFigure(value, figure, AMOUNT_DECIMALS);

/**
 * The same rule without the range check, for figures no request can be refused for: totals of
 * in-range figures (journal summary, backtest aggregates: a decimal sum cannot overflow, and a
 * trader with many operations must still see them) and the opportunity stream's figures.
 */
export const roundAmount = (value: Dec): number => roundFigure(value, null, AMOUNT_DECIMALS);
export const roundPercent = (value: Dec): number => roundFigure(value, null, PERCENT_DECIMALS);
export const roundPrice = (value: Dec): number => roundFigure(value, null, PRICE_DECIMALS);

export const percent = (value: Dec, figure: string): number => roundFigure(value, figure, PERCENT_DECIMALS);
export const priceFigure = (value: Dec, figure: string): number => roundFigure(value, figure, PRICE_DECIMALS);

/** Whole units of the last decimal an amount keeps (1e-8 USD). */
const AMOUNT_UNIT = 10 ** AMOUNT_DECIMALS;

/**
 * An exact Σ of amounts already rounded to AMOUNT_DECIMALS: whole 1e-8 units in a double while
 * every term and the sum of their magnitudes are exact integers there (a backtest sums hundreds
 * of thousands of operations, and a decimal add costs a microsecond), decimal from then on.
 * Either way the value is the decimal sum of the terms as given.
 */
export class AmountSum {
  private units = 0;
  private magnitude = 0;
  private exact: Dec | null = null;

  add(amount: number): void {
    if (this.exact === null) {
      const u = Math.round(amount * AMOUNT_UNIT);
      const magnitude = this.magnitude + Math.abs(u);
      if (Number.isSafeInteger(magnitude) && u / AMOUNT_UNIT === amount) {
        this.units += u;
        this.magnitude = magnitude;
        return;
      }
      this.exact = this.value();
    }
    this.exact = this.exact.plus(amount);
  }

  value(): Dec {
    return this.exact ?? new Dec(this.units).div(AMOUNT_UNIT);
  }

  /** Whether the sum is still kept in whole units (no term has needed decimal yet). */
  get inUnits(): boolean {
    return this.exact === null;
  }
}

/** A route's gross spread in percent, exact: (sell − buy) ÷ buy × 100; `buy` must be above 0. */
export function spreadPercent(buyPrice: number, sellPrice: number): Dec {
  const buy = new Dec(buyPrice);
  return new Dec(sellPrice).minus(buy).div(buy).times(100);
}

/** Profitable (a win) exactly when the figure AS SHOWN, i.e. after rounding, is above 0. */
export const isProfitable = (roundedFigure: number): boolean => roundedFigure > 0;

/**
 * Threshold tests on a hot path, in doubles, exact where it matters. `approx` is a figure
 * computed in doubles; `scale` bounds the magnitude of the terms it was computed from. Doubles
 * carry about 16 digits and a few operations lose a few units of the last one, so `approx` is
 * trusted to 1e-12 of `scale` (four orders of margin). The rounded figure moves at most half a
 * unit of its last decimal from the exact one, so beyond that band plus the margin doubles give
 * the same answer as decimal; inside it the answer is `undefined` and the caller decides in
 * decimal (rare: a tick within about 5e-9 of the threshold). No allocation.
 */
export const DOUBLE_TRUST = 1e-12;

/** 10^d and half of 10^-d for d = 0..12, looked up rather than computed per call. */
const POW10 = Array.from({ length: 13 }, (_, d) => 10 ** d);
const HALF_UNIT = POW10.map((p) => 0.5 / p);

/**
 * The rule applied to a figure computed in doubles (`approx`, from terms of magnitude up to
 * `scale`), for loops that value thousands of rows: the rounded figure, when no rounding tie lies
 * within the error doubles may carry (then it is exactly what decimal gives: a tie is the only
 * place where a small error changes the rounded result); undefined otherwise, and the caller
 * computes the figure in decimal. Never -0. No range check: callers fall back to decimal near
 * the range limit, where the limit is checked.
 */
export function roundFast(approx: number, scale: number, decimals: number): number | undefined {
  const unit = POW10[decimals];
  const magnitude = Math.max(Math.abs(scale), Math.abs(approx));
  if (!(magnitude < FAST_LIMIT)) return undefined;
  const scaled = approx * unit;
  const floor = Math.floor(scaled);
  const fraction = scaled - floor;
  // The doubles' error, in units of the last decimal, plus the rounding of approx × unit.
  const error = (DOUBLE_TRUST * (magnitude + 1) + Math.abs(approx) * 1e-15) * unit;
  if (Math.abs(fraction - 0.5) <= error) return undefined;
  const rounded = (fraction < 0.5 ? floor : floor + 1) / unit;
  return rounded === 0 ? 0 : rounded;
}

/** Beyond this magnitude roundFast defers to decimal (and so to the range check). */
const FAST_LIMIT = MAX_FIGURE / 10;

/**
 * true: the rounded figure is certainly above `threshold`; false: certainly below it; undefined:
 * it may round to the threshold itself, ask decimal (`roundsAbove` / `roundsAtLeast`).
 */
export function thresholdFast(approx: number, scale: number, threshold: number, decimals: number): boolean | undefined {
  const band = HALF_UNIT[decimals] + DOUBLE_TRUST * (Math.abs(scale) + Math.abs(threshold) + 1);
  if (approx > threshold + band) return true;
  if (approx < threshold - band) return false;
  return undefined;
}

/**
 * The band of a percent threshold test that runs outside the process (SQL, in doubles) and must
 * never drop a row the rule keeps: `SQL_BAND_UNIT + SQL_BAND_PER_SCALE × (scale + threshold + 1)`,
 * twice thresholdFast's half unit and ten times its trust, so every row thresholdFast might keep
 * passes, and decimal decides the rest in the process.
 */
export const SQL_BAND_UNIT = 1e-8;
export const SQL_BAND_PER_SCALE = 1e-11;

/** Whether the rounded figure is at or above `threshold`, by decimal. */
export function roundsAtLeast(exact: Dec, threshold: number, decimals: number): boolean {
  return exact.toDecimalPlaces(decimals).gte(threshold);
}

/** Whether the rounded figure is above `threshold`, by decimal. */
export function roundsAbove(exact: Dec, threshold: number, decimals: number): boolean {
  return exact.toDecimalPlaces(decimals).gt(threshold);
}
