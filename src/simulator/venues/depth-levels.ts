import { crc32 } from 'node:zlib';
import type { BookDelta, Level } from '../depth-book.js';
import { formatPlain, formatStep, type Instrument } from '../instruments.js';
import type { MarketState, SimQuote } from '../market-state.js';
import { lotOf, venueInstrument, type VenueLots } from './lots.js';

/** How one venue writes a market's levels: its tick for prices, its unit (base, lots or contracts) for sizes. */
export interface LevelFormat {
  tick: number;
  /** A base quantity in the venue's size unit, as the venue writes it. */
  size(baseQty: number): string;
}

/** Levels as `[price, size]` strings, at most `depth` of them (a removed level keeps size `0`). */
export function rows(levels: readonly Level[], format: LevelFormat, depth = Number.POSITIVE_INFINITY): [string, string][] {
  const out: [string, string][] = [];
  for (const [price, qty] of levels) {
    if (out.length >= depth) break;
    out.push([formatStep(price, format.tick), qty === 0 ? '0' : format.size(qty)]);
  }
  return out;
}

/**
 * A market's level format on a venue that lists it in lots (`1000PEPEUSDT`): prices × the lot,
 * sizes ÷ it; elsewhere the unit tick and base sizes. `size` overrides the size unit (contracts).
 */
export function levelFormat(
  q: SimQuote, state: MarketState, lots: VenueLots, size?: (baseQty: number, i: Instrument) => string,
): LevelFormat {
  const unit = state.instrument(q.ticker);
  const lot = lotOf(lots, q.market, q.ticker);
  const i = unit ? venueInstrument(lots, q.market, unit) : undefined;
  const m = lot?.multiplier ?? 1;
  return {
    tick: i?.tick ?? 1e-8,
    size: (qty) => (size && unit ? size(qty, unit) : formatPlain(qty / m)),
  };
}

/** Lot-scaled levels: prices × the venue's lot multiplier (sizes are scaled by the format). */
export function scaled(lots: VenueLots, q: SimQuote, levels: readonly Level[]): Level[] {
  const m = lotOf(lots, q.market, q.ticker)?.multiplier ?? 1;
  return m === 1 ? [...levels] : levels.map(([p, qty]) => [p * m, qty]);
}

/** The delta's sides, lot-scaled. */
export function scaledDelta(lots: VenueLots, q: SimQuote, delta: BookDelta): { bids: Level[]; asks: Level[] } {
  return { bids: scaled(lots, q, delta.bids), asks: scaled(lots, q, delta.asks) };
}

const CHECKSUM_LEVELS = 25;

/**
 * The book checksum some venues send: CRC-32 (signed) of the first 25 bids and asks
 * interleaved as `bidPx:bidSz:askPx:askSz:…`, price and size strings as sent.
 */
export function bookChecksum(bids: readonly (readonly string[])[], asks: readonly (readonly string[])[]): number {
  const parts: string[] = [];
  for (let n = 0; n < CHECKSUM_LEVELS; n++) {
    const bid = bids[n];
    const ask = asks[n];
    if (bid) parts.push(bid[0] ?? '', bid[1] ?? '');
    if (ask) parts.push(ask[0] ?? '', ask[1] ?? '');
  }
  return crc32(parts.join(':')) | 0;
}
