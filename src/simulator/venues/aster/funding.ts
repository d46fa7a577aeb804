import type { MarketState } from '../../market-state.js';
import { historyOf, intParam, limitOf } from '../funding-history.js';
import type { FundingFields, VenuePerpetuals } from '../funding-rest.js';
import { ok, type RestReply, type RestRequest } from '../protocol.js';
import { LOTS } from './listing.js';

/** How the venue's funding calls name its perpetuals (`BTCUSDT`). */
export const PERPETUALS: VenuePerpetuals = { exchange: 'aster', lots: LOTS, idOf: (t) => t.replace('-', '') };

/** GET /fapi/v3/premiumIndex. */
export function asterPremiumIndex(r: FundingFields): Record<string, unknown> {
  return {
    symbol: r.id, markPrice: r.mark, indexPrice: r.mark, estimatedSettlePrice: r.mark, lastFundingRate: r.rate,
    interestRate: '0.00010000', nextFundingTime: r.next ?? 0, time: Date.now(),
  };
}

/** GET /fapi/v3/fundingInfo: every perpetual, with its `fundingIntervalHours` where one is stated. */
export function asterFundingInfo(rows: readonly FundingFields[]): Record<string, unknown>[] {
  return rows.map((r) => ({
    symbol: r.id, interestRate: '0.00010000', time: Date.now(),
    ...(r.f.intervalHours === null ? {} : { fundingIntervalHours: r.f.intervalHours }), fundingFeeCap: 0.03, fundingFeeFloor: -0.03,
  }));
}

/** GET /fapi/v3/fundingRate: from startTime up to `limit` (default 100, max 1000), else the latest. */
export function asterFundingHistory(req: RestRequest, state: MarketState): RestReply {
  const q = historyOf(state, PERPETUALS, req.query.get('symbol'));
  if (!q) return { status: 400, body: { code: -1121, msg: 'Invalid symbol.' } };
  const start = intParam(req, 'startTime');
  const end = intParam(req, 'endTime');
  const limit = limitOf(req, 'limit', 100, 1000);
  const inRange = q.history.filter((s) => (start === undefined || s.settledAt >= start) && (end === undefined || s.settledAt <= end));
  const rows = start === undefined ? inRange.slice(-limit) : inRange.slice(0, limit);
  return ok(rows.map((s) => ({ symbol: q.id, fundingRate: s.rate.toFixed(8), fundingTime: s.settledAt })));
}
