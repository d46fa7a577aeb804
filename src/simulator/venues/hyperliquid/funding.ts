import type { MarketState } from '../../market-state.js';
import { historyOf } from '../funding-history.js';
import { formatRate, type VenuePerpetuals } from '../funding-rest.js';
import { ok, type RestReply } from '../protocol.js';
import { LOTS } from './listing.js';

/** Its perpetuals by coin name (`BTC`, `kPEPE`), as the `fundingHistory` call and the meta rows name them. */
export const PERPETUALS: VenuePerpetuals = {
  exchange: 'hyperliquid', lots: LOTS, idOf: (t) => LOTS.FUTURES?.[t.slice(0, t.indexOf('-'))]?.name ?? t.slice(0, t.indexOf('-')),
};

/** Rows one `fundingHistory` answer carries at most. */
const HISTORY_PAGE = 500;

const intOf = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined);

/** info `fundingHistory`: the payments in [startTime, endTime], oldest first, at most 500. */
export function fundingHistory(body: Record<string, unknown>, state: MarketState): RestReply {
  const coin = typeof body.coin === 'string' ? body.coin : null;
  const start = intOf(body.startTime);
  if (start === undefined) return { status: 422, body: 'Failed to deserialize the JSON body into the target type' };
  const q = historyOf(state, PERPETUALS, coin);
  if (!q) return { status: 500, body: null };
  const end = intOf(body.endTime) ?? Number.POSITIVE_INFINITY;
  const rows = q.history.filter((s) => s.settledAt >= start && s.settledAt <= end).slice(0, HISTORY_PAGE);
  return ok(rows.map((s) => ({ coin: q.id, fundingRate: formatRate(s.rate), premium: '0.0', time: s.settledAt })));
}
