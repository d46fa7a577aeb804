import type { Exchange, FundingRateHistory } from 'ccxt';
import type { ExchangeName } from '../../market-model/exchanges.js';
import type { FundingSettlementRead } from '../market-data-source.js';

/**
 * Settled funding of one perpetual through ccxt 4.5.84's fetchFundingRateHistory, paged the way
 * each venue's call pages (docs/venues.md "Funding history"):
 * - binance /fapi/v1/fundingRate: up to 1,000 oldest first from `since`; forward.
 * - bybit /v5/market/funding/history: at most 200 in [since, until]; ccxt would stretch `until`
 *   by 200 × the current interval, which skips payments after a move to a shorter interval, so
 *   each page asks for 200 hours (200 payments at the shortest, 1 h, interval); forward.
 * - okx /api/v5/public/funding-rate-history: up to 400 newest first; backward with `after`.
 * - gate /api/v4/futures/usdt/funding_rate: up to 1,000 newest first in [since, until]; backward.
 * - bitget /api/v2/mix/market/history-fund-rate: pages of 100 newest first, no time filter; backward by page.
 * Every page waits for `pace` first, so the venue's own limit for the call is kept.
 */
export type Pace = () => Promise<() => void>;

const HOUR_MS = 3_600_000;
const BYBIT_PAGE = 200;
const MAX_PAGES = 50;

type Page = (client: Exchange, symbol: string, since: number, cursor: number | null) => Promise<FundingRateHistory[]>;

const PAGES: Record<ExchangeName, { page: Page; size: number; direction: 'forward' | 'backward' }> = {
  binance: { page: (c, s, since, cursor) => c.fetchFundingRateHistory(s, cursor ?? since, 1000), size: 1000, direction: 'forward' },
  bybit: {
    page: (c, s, since, cursor) => {
      const from = cursor ?? since;
      return c.fetchFundingRateHistory(s, from, BYBIT_PAGE, { until: from + BYBIT_PAGE * HOUR_MS - 1 });
    },
    size: BYBIT_PAGE,
    direction: 'forward',
  },
  okx: { page: (c, s, _since, cursor) => c.fetchFundingRateHistory(s, undefined, 400, cursor === null ? {} : { after: cursor }), size: 400, direction: 'backward' },
  gate: { page: (c, s, since, cursor) => c.fetchFundingRateHistory(s, since, 1000, cursor === null ? {} : { until: cursor }), size: 1000, direction: 'backward' },
  bitget: { page: (c, s, _since, cursor) => c.fetchFundingRateHistory(s, undefined, 100, { pageNo: cursor ?? 1 }), size: 100, direction: 'backward' },
};

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
function nextCursor(exchange: ExchangeName, rows: FundingRateHistory[], cursor: number | null, since: number, now: number): number | null {
  const { size, direction } = PAGES[exchange];
  const times = rows.map((r) => r.timestamp).filter((t): t is number => typeof t === 'number');
  if (exchange === 'bybit') {
    const next = (cursor ?? since) + BYBIT_PAGE * HOUR_MS;
    return next <= now ? next : null;
  }
  if (rows.length < size || times.length === 0) return null;
  if (direction === 'forward') return Math.max(...times) + 1;
  const oldest = Math.min(...times);
  if (oldest <= since) return null;
  return exchange === 'bitget' ? (cursor ?? 1) + 1 : exchange === 'gate' ? oldest - 1 : oldest;
}

/** Every settlement of `symbol` at or after `since`, oldest first, each time once. */
export async function fetchSettlementHistory(
  exchange: ExchangeName, client: Exchange, symbol: string, since: number, now: number, pace: Pace,
): Promise<FundingSettlementRead[]> {
  const byTime = new Map<number, FundingSettlementRead>();
  let cursor: number | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const at = cursor;
    const rows = await paced(pace, () => PAGES[exchange].page(client, symbol, since, at));
    for (const row of rows) {
      const read = toRead(row);
      if (read && read.settledAt >= since && read.settledAt <= now) byTime.set(read.settledAt, read);
    }
    cursor = nextCursor(exchange, rows, cursor, since, now);
    if (cursor === null) break;
  }
  return [...byTime.values()].sort((a, b) => a.settledAt - b.settledAt);
}
