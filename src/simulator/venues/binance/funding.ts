import type { MarketState } from '../../market-state.js';
import { historyOf, intParam, limitOf } from '../funding-history.js';
import type { FundingFields, VenuePerpetuals } from '../funding-rest.js';
import { venueTicker } from '../lots.js';
import { ok, type RestReply, type RestRequest } from '../protocol.js';
import { LOTS } from './listing.js';

/** How the venue's funding calls name its perpetuals. */
export const PERPETUALS: VenuePerpetuals = { exchange: 'binance', lots: LOTS, idOf: (t) => venueTicker(LOTS, 'FUTURES', t).replace('-', '') };

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

/** binance GET /fapi/v1/fundingRate: from startTime up to `limit` (default 100, max 1000), else the latest. */
export function binanceFundingHistory(req: RestRequest, state: MarketState): RestReply {
  const q = historyOf(state, PERPETUALS, req.query.get('symbol'));
  if (!q) return { status: 400, body: { code: -1121, msg: 'Invalid symbol.' } };
  const start = intParam(req, 'startTime');
  const end = intParam(req, 'endTime');
  const limit = limitOf(req, 'limit', 100, 1000);
  const inRange = q.history.filter((s) => (start === undefined || s.settledAt >= start) && (end === undefined || s.settledAt <= end));
  const rows = start === undefined ? inRange.slice(-limit) : inRange.slice(0, limit);
  return ok(rows.map((s) => ({
    symbol: q.id, fundingRate: s.rate.toFixed(8), fundingTime: s.settledAt, markPrice: s.markPrice === null ? '' : String(s.markPrice),
  })));
}
