import type { ExchangeName } from '../../market-model/exchanges.js';
import { formatRate, nextFundingTimeOf, type SimFunding } from '../funding-state.js';
import { formatStep } from '../instruments.js';
import type { MarketState } from '../market-state.js';
import { lotOf, venueTicker } from '../venue-lots.js';

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

const idOf: Record<ExchangeName, (ticker: string) => string> = {
  binance: (t) => venueTicker('binance', 'FUTURES', t).replace('-', ''),
  bybit: (t) => venueTicker('bybit', 'FUTURES', t).replace('-', ''),
  okx: (t) => `${t}-SWAP`,
  gate: (t) => t.replace('-', '_'),
  bitget: (t) => t.replace('-', ''),
};

export function fundingFields(state: MarketState, f: SimFunding, now = Date.now()): FundingFields {
  // A lot-named perpetual (binance 1000PEPE) marks the lot: unit price × multiplier.
  const multiplier = lotOf(f.exchange, 'FUTURES', f.ticker)?.multiplier ?? 1;
  const tick = (state.instrument(f.ticker)?.tick ?? 1e-8) * multiplier;
  const unitMark = state.markPrice(f);
  const mark = unitMark === null ? null : unitMark * multiplier;
  return {
    f,
    id: idOf[f.exchange](f.ticker),
    rate: f.fundingRate === null ? '' : formatRate(f.fundingRate),
    mark: mark === null ? '' : formatStep(mark, tick / 10),
    next: nextFundingTimeOf(f, now),
  };
}

/** Every perpetual of an exchange, optionally only the one whose id is `only`. */
export function fundingRows(state: MarketState, exchange: ExchangeName, only?: string | null): FundingFields[] {
  const now = Date.now();
  return state.funding.list(exchange)
    .map((f) => fundingFields(state, f, now))
    .filter((row) => !only || row.id === only);
}

/** binance GET /fapi/v1/premiumIndex. */
export function binancePremiumIndex(r: FundingFields): Record<string, unknown> {
  return {
    symbol: r.id, markPrice: r.mark, indexPrice: r.mark, estimatedSettlePrice: r.mark, lastFundingRate: r.rate,
    interestRate: '0.00010000', nextFundingTime: r.next ?? 0, time: Date.now(),
  };
}

/**
 * binance GET /fapi/v1/fundingInfo lists only contracts whose settings differ from the default
 * (8 h); a contract without a stated interval is listed without `fundingIntervalHours`.
 */
export function binanceFundingInfo(rows: readonly FundingFields[]): Record<string, unknown>[] {
  return rows.filter((r) => r.f.intervalHours !== 8).map((r) => ({
    symbol: r.id, adjustedFundingRateCap: '0.02000000', adjustedFundingRateFloor: '-0.02000000',
    ...(r.f.intervalHours === null ? {} : { fundingIntervalHours: r.f.intervalHours }), disclaimer: false,
  }));
}

/** bybit `fundingInterval` of a linear instrument, in minutes. */
export function bybitFundingInterval(f: SimFunding | undefined): Record<string, unknown> {
  return f?.intervalHours == null ? {} : { fundingInterval: Math.round(f.intervalHours * 60) };
}

/** okx GET /api/v5/public/funding-rate: `fundingTime` is the next payment, `nextFundingTime` the one after. */
export function okxFundingRate(r: FundingFields): Record<string, unknown> {
  const row: Record<string, unknown> = {
    instType: 'SWAP', instId: r.id, fundingRate: r.rate, nextFundingRate: '', method: 'current_period',
    maxFundingRate: '0.0075', minFundingRate: '-0.0075', premium: '0.0000', settFundingRate: r.rate,
    settState: 'settled', ts: String(Date.now()),
  };
  if (r.next !== null) row.fundingTime = String(r.next);
  if (r.next !== null && r.f.intervalHours !== null) row.nextFundingTime = String(r.next + r.f.intervalHours * 3_600_000);
  return row;
}

/** okx GET /api/v5/public/mark-price. */
export function okxMarkPrice(r: FundingFields): Record<string, unknown> {
  return { instType: 'SWAP', instId: r.id, markPx: r.mark, ts: String(Date.now()) };
}

/** gate contract members about funding (the contracts list is also its funding-rate call). */
export function gateFundingMembers(r: FundingFields): Record<string, unknown> {
  const members: Record<string, unknown> = {
    funding_rate: r.rate, funding_rate_indicative: r.rate, mark_price: r.mark,
  };
  if (r.f.intervalHours !== null) members.funding_interval = Math.round(r.f.intervalHours * 3600);
  if (r.next !== null) members.funding_next_apply = Math.floor(r.next / 1000);
  return members;
}

/** bitget GET /api/v2/mix/market/current-fund-rate. */
export function bitgetCurrentFundRate(r: FundingFields): Record<string, unknown> {
  const row: Record<string, unknown> = { symbol: r.id, fundingRate: r.rate, minFundingRate: '-0.003', maxFundingRate: '0.003' };
  if (r.f.intervalHours !== null) row.fundingRateInterval = String(r.f.intervalHours);
  if (r.next !== null) row.nextUpdate = String(r.next);
  return row;
}
