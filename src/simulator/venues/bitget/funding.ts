import type { MarketState } from '../../market-state.js';
import { historyOf, intParam, limitOf, newestFirst } from '../funding-history.js';
import { formatRate, type FundingFields, type VenuePerpetuals } from '../funding-rest.js';
import { NO_LOTS } from '../lots.js';
import { ok, type RestReply, type RestRequest } from '../protocol.js';

/** How the venue's funding calls name its perpetuals. */
export const PERPETUALS: VenuePerpetuals = { exchange: 'bitget', lots: NO_LOTS, idOf: (t) => t.replace('-', '') };

/** bitget GET /api/v2/mix/market/current-fund-rate. */
export function bitgetCurrentFundRate(r: FundingFields): Record<string, unknown> {
  const row: Record<string, unknown> = { symbol: r.id, fundingRate: r.rate, minFundingRate: '-0.003', maxFundingRate: '0.003' };
  if (r.f.intervalHours !== null) row.fundingRateInterval = String(r.f.intervalHours);
  if (r.next !== null) row.nextUpdate = String(r.next);
  return row;
}
/** bitget GET /api/v2/mix/market/history-fund-rate: newest first, pageNo from 1, pageSize ≤ 100. */
export function bitgetFundingHistory(req: RestRequest, state: MarketState): RestReply {
  const envelope = (data: unknown): RestReply => ok({ code: '00000', msg: 'success', requestTime: Date.now(), data });
  const q = historyOf(state, PERPETUALS, req.query.get('symbol'));
  if (!q) return { status: 400, body: { code: '40034', msg: 'Parameter symbol does not exist', requestTime: Date.now(), data: null } };
  const size = limitOf(req, 'pageSize', 20, 100);
  const page = Math.max(1, intParam(req, 'pageNo') ?? 1);
  const rows = newestFirst(q.history).slice((page - 1) * size, page * size);
  return envelope(rows.map((s) => ({ symbol: q.id, fundingRate: formatRate(s.rate), fundingTime: String(s.settledAt) })));
}
