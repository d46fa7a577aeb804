import type { Exchange, FundingRateHistory } from 'ccxt';
import type { ExchangeName } from '../../market-model/exchanges.js';
import type { FundingSettlementRead } from '../market-data-source.js';
import { venueOf } from '../../venues/registry.js';
import type { FundingHistoryPaging } from '../../venues/venue.js';

/**
 * Settled funding of one perpetual through ccxt 4.5.84's fetchFundingRateHistory, paged the way
 * the venue's call pages (its folder's `funding.history`; docs/venues.md "Funding history"):
 * forward from `since`; forward by windows of hours (where ccxt would stretch `until` by
 * `size` × the current interval, which skips payments after a move to a shorter interval, each
 * page asks for `windowHours`); backward with `after` the oldest; backward with `until` the
 * oldest − 1; backward by page number. Every page waits for `pace` first, so the venue's own
 * limit for the call is kept.
 */
export type Pace = () => Promise<() => void>;

const HOUR_MS = 3_600_000;
const MAX_PAGES = 50;

function fetchPage(client: Exchange, paging: FundingHistoryPaging, symbol: string, since: number, cursor: number | null): Promise<FundingRateHistory[]> {
  switch (paging.kind) {
    case 'forward':
      return client.fetchFundingRateHistory(symbol, cursor ?? since, paging.size);
    case 'forward-window': {
      const from = cursor ?? since;
      return client.fetchFundingRateHistory(symbol, from, paging.size, { until: from + paging.windowHours * HOUR_MS - 1 });
    }
    case 'backward-after':
      return client.fetchFundingRateHistory(symbol, undefined, paging.size, cursor === null ? {} : { after: cursor });
    case 'backward-until':
      return client.fetchFundingRateHistory(symbol, since, paging.size, cursor === null ? {} : { until: cursor });
    case 'backward-page':
      return client.fetchFundingRateHistory(symbol, undefined, paging.size, { pageNo: cursor ?? 1 });
  }
}

function toRead(h: FundingRateHistory): FundingSettlementRead | null {
  const rate = h.fundingRate;
  const at = h.timestamp;
  if (typeof rate !== 'number' || !Number.isFinite(rate) || typeof at !== 'number' || at <= 0) return null;
  const mark = Number((h.info as Record<string, unknown> | undefined)?.markPrice);
  return { settledAt: at, rate, markPrice: Number.isFinite(mark) && mark > 0 ? mark : null };
}

async function paced<T>(pace: Pace, call: () => Promise<T>): Promise<T> {
  const release = await pace();
  try {
    return await call();
  } finally {
    release();
  }
}

/** The next cursor, or null when the last page reached `since` (or `now`) or came back short. */
function nextCursor(paging: FundingHistoryPaging, rows: FundingRateHistory[], cursor: number | null, since: number, now: number): number | null {
  if (paging.kind === 'forward-window') {
    const next = (cursor ?? since) + paging.windowHours * HOUR_MS;
    return next <= now ? next : null;
  }
  const times = rows.map((r) => r.timestamp).filter((t): t is number => typeof t === 'number');
  if (rows.length < paging.size || times.length === 0) return null;
  if (paging.kind === 'forward') return Math.max(...times) + 1;
  const oldest = Math.min(...times);
  if (oldest <= since) return null;
  switch (paging.kind) {
    case 'backward-page':
      return (cursor ?? 1) + 1;
    case 'backward-until':
      return oldest - 1;
    case 'backward-after':
      return oldest;
  }
}

/** Every settlement of `symbol` at or after `since`, oldest first, each time once. */
export async function fetchSettlementHistory(
  exchange: ExchangeName, client: Exchange, symbol: string, since: number, now: number, pace: Pace,
): Promise<FundingSettlementRead[]> {
  const paging = venueOf(exchange).funding.history;
  const byTime = new Map<number, FundingSettlementRead>();
  let cursor: number | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const at = cursor;
    const rows = await paced(pace, () => fetchPage(client, paging, symbol, since, at));
    for (const row of rows) {
      const read = toRead(row);
      if (read && read.settledAt >= since && read.settledAt <= now) byTime.set(read.settledAt, read);
    }
    cursor = nextCursor(paging, rows, cursor, since, now);
    if (cursor === null) break;
  }
  return [...byTime.values()].sort((a, b) => a.settledAt - b.settledAt);
}
