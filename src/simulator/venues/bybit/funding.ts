import type { SimFunding } from '../../funding-state.js';
import type { MarketState } from '../../market-state.js';
import { historyOf, intParam, limitOf, newestFirst } from '../funding-history.js';
import { formatRate, type VenuePerpetuals } from '../funding-rest.js';
import { venueTicker } from '../lots.js';
import { ok, type RestReply, type RestRequest } from '../protocol.js';
import { LOTS } from './listing.js';

/** How the venue's funding calls name its perpetuals. */
export const PERPETUALS: VenuePerpetuals = { exchange: 'bybit', lots: LOTS, idOf: (t) => venueTicker(LOTS, 'FUTURES', t).replace('-', '') };

/** bybit `fundingInterval` of a linear instrument, in minutes. */
export function bybitFundingInterval(f: SimFunding | undefined): Record<string, unknown> {
  return f?.intervalHours == null ? {} : { fundingInterval: Math.round(f.intervalHours * 60) };
}

/** bybit GET /v5/market/funding/history: startTime alone is refused, as on bybit; limit ≤ 200. */
export function bybitFundingHistory(req: RestRequest, state: MarketState): RestReply {
  const reply = (retCode: number, retMsg: string, result: unknown): RestReply =>
    ok({ retCode, retMsg, result, retExtInfo: {}, time: Date.now() });
  const q = historyOf(state, PERPETUALS, req.query.get('symbol'));
  if (!q || req.query.get('category') !== 'linear') return reply(10001, 'params error: symbol invalid', {});
  const start = intParam(req, 'startTime');
  const end = intParam(req, 'endTime');
  if (start !== undefined && end === undefined) return reply(10001, 'params error: only startTime is passed', {});
  const rows = newestFirst(q.history)
    .filter((s) => (start === undefined || s.settledAt >= start) && (end === undefined || s.settledAt <= end))
    .slice(0, limitOf(req, 'limit', 200, 200));
  return reply(0, 'OK', {
    category: 'linear',
    list: rows.map((s) => ({ symbol: q.id, fundingRate: formatRate(s.rate), fundingRateTimestamp: String(s.settledAt) })),
  });
}
