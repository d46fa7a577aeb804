import type { MarketState } from '../../market-state.js';
import { historyOf, intParam, limitOf, newestFirst } from '../funding-history.js';
import { formatRate, type FundingFields, type VenuePerpetuals } from '../funding-rest.js';
import { NO_LOTS } from '../lots.js';
import { ok, type RestReply, type RestRequest } from '../protocol.js';

/** How the venue's funding calls name its perpetuals. */
export const PERPETUALS: VenuePerpetuals = { exchange: 'gate', lots: NO_LOTS, idOf: (t) => t.replace('-', '_') };

/** gate contract members about funding (the contracts list is also its funding-rate call). */
export function gateFundingMembers(r: FundingFields): Record<string, unknown> {
  const members: Record<string, unknown> = {
    funding_rate: r.rate, funding_rate_indicative: r.rate, mark_price: r.mark,
  };
  if (r.f.intervalHours !== null) members.funding_interval = Math.round(r.f.intervalHours * 3600);
  if (r.next !== null) members.funding_next_apply = Math.floor(r.next / 1000);
  return members;
}

/** gate GET /api/v4/futures/usdt/funding_rate: [from, to] in seconds, newest first, limit ≤ 1000. */
export function gateFundingHistory(req: RestRequest, state: MarketState): RestReply {
  const q = historyOf(state, PERPETUALS, req.query.get('contract'));
  if (!q) return { status: 400, body: { label: 'CONTRACT_NOT_FOUND', message: 'Contract not found' } };
  const from = intParam(req, 'from');
  const to = intParam(req, 'to');
  const rows = newestFirst(q.history)
    .filter((s) => (from === undefined || s.settledAt >= from * 1000) && (to === undefined || s.settledAt <= to * 1000))
    .slice(0, limitOf(req, 'limit', 100, 1000));
  return ok(rows.map((s) => ({ t: Math.floor(s.settledAt / 1000), r: formatRate(s.rate) })));
}
