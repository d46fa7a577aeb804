import type { MarketState } from '../../market-state.js';
import { historyOf, intParam, limitOf, newestFirst } from '../funding-history.js';
import { formatRate, type FundingFields, type VenuePerpetuals } from '../funding-rest.js';
import { NO_LOTS } from '../lots.js';
import { ok, type RestReply, type RestRequest } from '../protocol.js';

/** How the venue's funding calls name its perpetuals. */
export const PERPETUALS: VenuePerpetuals = { exchange: 'okx', lots: NO_LOTS, idOf: (t) => `${t}-SWAP` };

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

/** okx GET /api/v5/public/funding-rate-history: `after` older than, `before` newer than; limit ≤ 400. */
export function okxFundingHistory(req: RestRequest, state: MarketState): RestReply {
  const q = historyOf(state, PERPETUALS, req.query.get('instId'));
  if (!q) return ok({ code: '51001', msg: 'Instrument ID does not exist', data: [] });
  const after = intParam(req, 'after');
  const before = intParam(req, 'before');
  const rows = newestFirst(q.history)
    .filter((s) => (after === undefined || s.settledAt < after) && (before === undefined || s.settledAt > before))
    .slice(0, limitOf(req, 'limit', 400, 400));
  return ok({
    code: '0', msg: '',
    data: rows.map((s) => ({
      instType: 'SWAP', instId: q.id, formulaType: 'withRate', fundingRate: formatRate(s.rate),
      realizedRate: formatRate(s.rate), fundingTime: String(s.settledAt), method: 'current_period',
    })),
  });
}
