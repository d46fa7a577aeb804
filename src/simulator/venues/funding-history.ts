import type { SimSettlement } from '../funding-ledger.js';
import type { MarketState } from '../market-state.js';
import type { RestRequest } from './protocol.js';
import { fundingRows, type VenuePerpetuals } from './funding-rest.js';

/**
 * What the funding-history calls ccxt 4.5.84's fetchFundingRateHistory makes share; each venue's
 * `funding.ts` answers its own call in its own frame and paging.
 */
export interface HistoryQuery {
  history: SimSettlement[];
  id: string;
}

/** The settled history of the perpetual the venue names `id`, oldest first. */
export function historyOf(state: MarketState, venue: VenuePerpetuals, id: string | null): HistoryQuery | undefined {
  const row = id ? fundingRows(state, venue, id)[0] : undefined;
  if (!row) return undefined;
  return { history: [...state.funding.history(venue.exchange, row.f.ticker)], id: row.id };
}

export function intParam(req: RestRequest, name: string): number | undefined {
  const raw = req.query.get(name);
  if (raw === null || raw === '' || !/^\d+$/.test(raw)) return undefined;
  return Number(raw);
}

export const limitOf = (req: RestRequest, name: string, fallback: number, max: number): number =>
  Math.min(max, Math.max(1, intParam(req, name) ?? fallback));

export const newestFirst = (rows: SimSettlement[]): SimSettlement[] => [...rows].sort((a, b) => b.settledAt - a.settledAt);

