/// <reference lib="webworker" />
import { INITIAL_STREAM_STATE, type StreamState, watchStream } from '../lib/stream-watch';
import { num, price } from '../lib/format';
import type { FromPricesWorker, Price, PriceRow, PricesView } from './prices-protocol';

/**
 * Reads the 1 s price snapshot (3,020 markets and more) off the page's thread: parsing, sorting
 * and searching happen here, and the page gets only the rows in view, so it never stalls.
 */
const scope = self as unknown as DedicatedWorkerGlobalScope;
let all: Price[] = [];
let matched: Price[] = [];
let view: PricesView = { query: '', first: 0, count: 60 };
let at = 0;
let frames = 0;
let state: StreamState = INITIAL_STREAM_STATE;

/** A quote is stale 10 s after its last tick. */
const STALE_MS = 10_000;

function rowOf(p: Price, now: number): PriceRow {
  const age = now - Date.parse(p.updatedAt);
  const stale = age > STALE_MS;
  const updated = stale ? `stale ${Math.round(age / 1000)} s` : `${Math.max(0, Math.round(age / 100) / 10)} s ago`;
  return { stale, cells: [p.ticker, p.exchange, p.market, price(p.bid), price(p.ask), num(p.bidQty), num(p.askQty), num(p.volume, 0), updated] };
}

const order = (a: Price, b: Price): number =>
  a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : a.exchange < b.exchange ? -1 : a.exchange > b.exchange ? 1 : a.market < b.market ? -1 : 1;

function search(): void {
  const needle = view.query.trim().toUpperCase();
  matched = needle ? all.filter((p) => p.ticker.includes(needle) || p.exchange.toUpperCase() === needle || p.market === needle) : all;
}

function send(message: FromPricesWorker): void {
  scope.postMessage(message);
}

function sendRows(): void {
  const rows = matched.slice(view.first, view.first + view.count).map((p) => rowOf(p, at));
  send({ type: 'rows', total: all.length, matched: matched.length, first: view.first, rows, frames });
}

let started = false;

scope.onmessage = (e: MessageEvent<PricesView>) => {
  const queryChanged = e.data.query !== view.query;
  view = e.data;
  if (queryChanged) search();
  if (!started) start(e.data.token ?? null);
  sendRows();
};

/** The stream opens with the page's first message, which carries its token (if any). */
function start(token: string | null): void {
  started = true;
  watchStream(
  `${scope.location.origin}/v1/realtime/prices`,
  (data) => {
    all = (JSON.parse(data) as Price[]).sort(order);
    at = Date.now();
    frames += 1;
    search();
    sendRows();
  },
  (update) => {
    state = update(state);
    send({ type: 'state', state });
  },
  token,
  );
}
