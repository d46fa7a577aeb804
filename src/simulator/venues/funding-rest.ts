import type { ExchangeName } from '../../market-model/exchanges.js';
import type { SimFunding } from '../funding-state.js';
import { formatStep } from '../instruments.js';
import type { MarketState } from '../market-state.js';
import { lotOf, type VenueLots } from './lots.js';

const HOUR_MS = 3_600_000;

/**
 * The funding members each exchange prints, in its own words, for the REST calls ccxt 4.5.84
 * makes in fetchFundingRates / fetchFundingIntervals / fetchMarkPrices. A rate the exchange does
 * not send is "" (ccxt reads it as missing); an interval it does not state is left out.
 */
export interface FundingFields {
  f: SimFunding;
  id: string;
  /** Rate as text, "" when none. */
  rate: string;
  /** Mark price as text, "" when none. */
  mark: string;
  /** Next payment in Unix ms, or null. */
  next: number | null;
}

/** What the shared funding helpers need of a venue: its name, its lots and how it names a perpetual. */
export interface VenuePerpetuals {
  readonly exchange: ExchangeName;
  readonly lots: VenueLots;
  /** The perpetual's id as the venue's funding calls name it. */
  idOf(ticker: string): string;
}

export function fundingFields(state: MarketState, venue: VenuePerpetuals, f: SimFunding, now = Date.now()): FundingFields {
  // A lot-named perpetual (`1000PEPE`) marks the lot: unit price × multiplier.
  const multiplier = lotOf(venue.lots, 'FUTURES', f.ticker)?.multiplier ?? 1;
  const tick = (state.instrument(f.ticker)?.tick ?? 1e-8) * multiplier;
  const unitMark = state.markPrice(f);
  const mark = unitMark === null ? null : unitMark * multiplier;
  return {
    f,
    id: venue.idOf(f.ticker),
    rate: f.fundingRate === null ? '' : formatRate(f.fundingRate),
    mark: mark === null ? '' : formatStep(mark, tick / 10),
    next: nextFundingTimeOf(f, now),
  };
}

/** Every perpetual of a venue, optionally only the one whose id is `only`. */
export function fundingRows(state: MarketState, venue: VenuePerpetuals, only?: string | null): FundingFields[] {
  const now = Date.now();
  return state.funding.list(venue.exchange)
    .map((f) => fundingFields(state, venue, f, now))
    .filter((row) => !only || row.id === only);
}

/** Unix ms of the next payment as the exchange would announce it, or null. */
export function nextFundingTimeOf(f: SimFunding, now = Date.now()): number | null {
  if (f.nextFundingTime !== 'schedule') return f.nextFundingTime;
  const intervalMs = (f.intervalHours ?? 8) * HOUR_MS;
  return Math.floor(now / intervalMs) * intervalMs + intervalMs;
}

/** Rates as exchanges print them: plain decimals, no exponent. */
export function formatRate(rate: number): string {
  return rate.toFixed(8).replace(/0+$/, '').replace(/\.$/, '');
}
