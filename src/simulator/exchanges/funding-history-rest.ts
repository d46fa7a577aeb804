import type { ExchangeName } from '../../market-model/exchanges.js';
import type { SimSettlement } from '../funding-ledger.js';
import { formatRate } from '../funding-state.js';
import type { MarketState } from '../market-state.js';
import { ok, type RestReply, type RestRequest } from './protocol.js';
import { fundingRows } from './funding-rest.js';

/**
 * The funding-history call ccxt 4.5.84's fetchFundingRateHistory makes on each venue, in the
 * venue's own frame and paging: binance /fapi/v1/fundingRate (oldest first from startTime),
 * bybit /v5/market/funding/history (newest first in [startTime, endTime]), okx
 * /api/v5/public/funding-rate-history (newest first, `before`/`after` cursors), gate
 * /api/v4/futures/usdt/funding_rate (newest first in [from, to], seconds), bitget
 * /api/v2/mix/market/history-fund-rate (newest first, pageNo/pageSize).
 */
interface Query {
  history: SimSettlement[];
  id: string;
}

function lookup(state: MarketState, exchange: ExchangeName, id: string | null): Query | undefined {
  const row = id ? fundingRows(state, exchange, id)[0] : undefined;
  if (!row) return undefined;
  return { history: [...state.funding.history(exchange, row.f.ticker)], id: row.id };
}

function intParam(req: RestRequest, name: string): number | undefined {
  const raw = req.query.get(name);
  if (raw === null || raw === '' || !/^\d+$/.test(raw)) return undefined;
  return Number(raw);
}

const limitOf = (req: RestRequest, name: string, fallback: number, max: number): number =>
  Math.min(max, Math.max(1, intParam(req, name) ?? fallback));

const newestFirst = (rows: SimSettlement[]): SimSettlement[] => [...rows].sort((a, b) => b.settledAt - a.settledAt);

/** binance GET /fapi/v1/fundingRate: from startTime up to `limit` (default 100, max 1000), else the latest. */
export function binanceFundingHistory(req: RestRequest, state: MarketState): RestReply {
  const q = lookup(state, 'binance', req.query.get('symbol'));
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

/** bybit GET /v5/market/funding/history: startTime alone is refused, as on bybit; limit ≤ 200. */
export function bybitFundingHistory(req: RestRequest, state: MarketState): RestReply {
  const reply = (retCode: number, retMsg: string, result: unknown): RestReply =>
    ok({ retCode, retMsg, result, retExtInfo: {}, time: Date.now() });
  const q = lookup(state, 'bybit', req.query.get('symbol'));
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

/** okx GET /api/v5/public/funding-rate-history: `after` older than, `before` newer than; limit ≤ 400. */
export function okxFundingHistory(req: RestRequest, state: MarketState): RestReply {
  const q = lookup(state, 'okx', req.query.get('instId'));
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

/** gate GET /api/v4/futures/usdt/funding_rate: [from, to] in seconds, newest first, limit ≤ 1000. */
export function gateFundingHistory(req: RestRequest, state: MarketState): RestReply {
  const q = lookup(state, 'gate', req.query.get('contract'));
  if (!q) return { status: 400, body: { label: 'CONTRACT_NOT_FOUND', message: 'Contract not found' } };
  const from = intParam(req, 'from');
  const to = intParam(req, 'to');
  const rows = newestFirst(q.history)
    .filter((s) => (from === undefined || s.settledAt >= from * 1000) && (to === undefined || s.settledAt <= to * 1000))
    .slice(0, limitOf(req, 'limit', 100, 1000));
  return ok(rows.map((s) => ({ t: Math.floor(s.settledAt / 1000), r: formatRate(s.rate) })));
}

/** bitget GET /api/v2/mix/market/history-fund-rate: newest first, pageNo from 1, pageSize ≤ 100. */
export function bitgetFundingHistory(req: RestRequest, state: MarketState): RestReply {
  const envelope = (data: unknown): RestReply => ok({ code: '00000', msg: 'success', requestTime: Date.now(), data });
  const q = lookup(state, 'bitget', req.query.get('symbol'));
  if (!q) return { status: 400, body: { code: '40034', msg: 'Parameter symbol does not exist', requestTime: Date.now(), data: null } };
  const size = limitOf(req, 'pageSize', 20, 100);
  const page = Math.max(1, intParam(req, 'pageNo') ?? 1);
  const rows = newestFirst(q.history).slice((page - 1) * size, page * size);
  return envelope(rows.map((s) => ({ symbol: q.id, fundingRate: formatRate(s.rate), fundingTime: String(s.settledAt) })));
}
