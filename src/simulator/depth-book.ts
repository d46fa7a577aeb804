import { roundToStep, type Instrument } from './instruments.js';
import { seededRng } from './random-walk.js';
import type { SimQuote } from './market-state.js';

/** One price level: price and quantity in base units, as the simulator prices every market. */
export type Level = readonly [price: number, qty: number];

export interface BookLevels {
  /** Best (highest) first. */
  bids: readonly Level[];
  /** Best (lowest) first. */
  asks: readonly Level[];
}

/** A book as protocols render it: its levels and the update id the venue sends with it. */
export interface BookView extends BookLevels {
  id: number;
}

/**
 * The changes between two published versions of a book, as diff channels send them: every level
 * whose quantity changed, a removed level with quantity 0, ids `first`..`last` (a diff's first and last update ids).
 */
export interface BookDelta {
  first: number;
  last: number;
  bids: Level[];
  asks: Level[];
  /** The book as the previous delta left it, so that a channel showing N levels can diff its own top N. */
  before: BookLevels;
}

/**
 * The changes a channel showing `depth` levels a side sends: its top `depth` before against its
 * top `depth` now (a level leaving the top is removed, one entering is added), or the whole delta
 * for a full-book channel.
 */
export function deltaWithin(delta: BookDelta, now: BookLevels, depth: number): { bids: Level[]; asks: Level[] } {
  if (!Number.isFinite(depth)) return { bids: delta.bids, asks: delta.asks };
  const side = (before: readonly Level[], after: readonly Level[], order: 1 | -1): Level[] => {
    const changes = new Map<number, number>();
    diffInto(changes, before.slice(0, depth), after.slice(0, depth));
    return [...changes].sort((a, b) => order * (a[0] - b[0]));
  };
  return { bids: side(delta.before.bids, now.bids, -1), asks: side(delta.before.asks, now.asks, 1) };
}

/** Levels a side of every generated book; the deepest channel served (400 levels) shows them all. */
export const GENERATED_LEVELS = 50;
/** Each level further from the top holds this share of the one before it. */
export const LEVEL_DECAY = 0.95;
/** Pending changes kept for a book nobody reads; beyond it they are dropped (no subscriber needs them). */
const PENDING_MAX = 2_000;

function hashOf(text: string): number {
  let hash = 2166136261;
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return hash;
}

function side(best: number, bestQty: number, direction: -1 | 1, i: Instrument, rng: () => number): Level[] {
  const levels: Level[] = [];
  let price = best;
  let qty = bestQty;
  for (let n = 0; n < GENERATED_LEVELS && price > 0; n++) {
    levels.push([price, qty]);
    // One or two ticks to the next level: realistic books leave some ticks empty.
    price = roundToStep(price + direction * i.tick * (rng() < 0.7 ? 1 : 2), i.tick);
    qty = Math.max(i.lotStep, roundToStep(qty * LEVEL_DECAY, i.lotStep));
  }
  return levels;
}

/**
 * The L2 book around a quote: the quote's bid and ask are the best levels with its quantities;
 * further levels step away by one or two ticks, their sizes thinning by LEVEL_DECAY a level
 * (never below one lot step). The gaps are drawn from the quote itself, so a quote always gives
 * the same book.
 */
export function generateBook(quote: SimQuote, i: Instrument): BookLevels {
  const rng = seededRng(hashOf(`${quote.exchange}|${quote.market}|${quote.ticker}|${quote.seq}`));
  return {
    bids: side(quote.bid, quote.bidQty, -1, i, rng),
    asks: side(quote.ask, quote.askQty, 1, i, rng),
  };
}

interface BookEntry extends BookView {
  /** The quote seq this version was built from. */
  seq: number;
  /** Id of the last version handed out as a delta, and its levels. */
  taken: number;
  takenLevels: BookLevels;
  pendingBids: Map<number, number>;
  pendingAsks: Map<number, number>;
}

function diffInto(pending: Map<number, number>, before: readonly Level[], after: readonly Level[]): void {
  const next = new Map(after.map(([p, q]) => [p, q]));
  for (const [price] of before) if (!next.has(price)) pending.set(price, 0);
  const previous = new Map(before.map(([p, q]) => [p, q]));
  for (const [price, qty] of after) if (previous.get(price) !== qty) pending.set(price, qty);
}

const key = (q: Pick<SimQuote, 'exchange' | 'market' | 'ticker'>): string => `${q.exchange}|${q.market}|${q.ticker}`;

/**
 * The books of every market, built lazily from the quotes: a book is (re)built only when read
 * after its quote changed, so markets nobody watches cost nothing. A book set exactly
 * (PUT /_sim/books) holds until the market's next quote, which re-centres a generated book.
 * Every new version gets the next update id; the changes since the last delta handed out are
 * merged, so a delta brings any version after it up to date.
 */
export class DepthBooks {
  private readonly books = new Map<string, BookEntry>();
  private readonly exact = new Map<string, { seq: number; levels: BookLevels }>();

  /** A book set exactly for the quote of this seq (the quote carries its best levels). */
  setExact(quote: SimQuote, levels: BookLevels): void {
    this.exact.set(key(quote), { seq: quote.seq, levels });
  }

  /** The current book of a market. */
  current(quote: SimQuote, i: Instrument): BookView {
    const k = key(quote);
    let entry = this.books.get(k);
    if (entry && entry.seq === quote.seq) return entry;
    const exact = this.exact.get(k);
    const levels = exact && exact.seq === quote.seq ? exact.levels : generateBook(quote, i);
    if (exact && exact.seq !== quote.seq) this.exact.delete(k);
    if (!entry) {
      entry = { ...levels, id: 1, seq: quote.seq, taken: 1, takenLevels: levels, pendingBids: new Map(), pendingAsks: new Map() };
      this.books.set(k, entry);
      return entry;
    }
    diffInto(entry.pendingBids, entry.bids, levels.bids);
    diffInto(entry.pendingAsks, entry.asks, levels.asks);
    Object.assign(entry, levels, { id: entry.id + 1, seq: quote.seq });
    if (entry.pendingBids.size + entry.pendingAsks.size > PENDING_MAX) this.takeDelta(quote);
    return entry;
  }

  /** A new version without change (a venue's periodic update): it re-states the best levels. */
  touch(quote: SimQuote, i: Instrument): BookView {
    this.current(quote, i);
    const entry = this.books.get(key(quote));
    if (!entry) throw new Error('book not built');
    const [bid] = entry.bids;
    const [ask] = entry.asks;
    if (bid) entry.pendingBids.set(bid[0], bid[1]);
    if (ask) entry.pendingAsks.set(ask[0], ask[1]);
    entry.id++;
    return entry;
  }

  /** The changes since the last delta taken, or undefined when the book has not moved since. */
  takeDelta(quote: SimQuote): BookDelta | undefined {
    const entry = this.books.get(key(quote));
    if (!entry || entry.taken === entry.id) return undefined;
    const delta: BookDelta = {
      first: entry.taken + 1,
      last: entry.id,
      bids: [...entry.pendingBids].sort((a, b) => b[0] - a[0]),
      asks: [...entry.pendingAsks].sort((a, b) => a[0] - b[0]),
      before: entry.takenLevels,
    };
    entry.taken = entry.id;
    entry.takenLevels = { bids: entry.bids, asks: entry.asks };
    entry.pendingBids.clear();
    entry.pendingAsks.clear();
    return delta;
  }
}
