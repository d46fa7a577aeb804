import { deltaWithin, type Level } from '../../depth-book.js';
import { toContracts } from '../../instruments.js';
import type { MarketState } from '../../market-state.js';
import { bookChecksum, levelFormat, rows, type LevelFormat } from '../depth-levels.js';
import type { DepthFrame, Subscription } from '../protocol.js';
import { NO_LOTS } from '../lots.js';

/** OKX's public depth channels: `books` (400 levels, snapshot then updates) and `books5` (snapshot each push). */
export const OKX_DEPTH_CHANNELS: Readonly<Record<string, number>> = { books: 400, books5: 5 };

/** OKX rows carry `[price, size, "0", orders]`; a removed level has size and orders `0`. */
function okxRows(levels: readonly Level[], format: LevelFormat, depth?: number): string[][] {
  return rows(levels, format, depth).map(([p, sz]) => [p, sz, '0', sz === '0' ? '0' : '1']);
}

export function renderOkxDepth(sub: Subscription, frame: DepthFrame, state: MarketState, instId: string, ctVal: number): string {
  const { quote, book, delta } = frame;
  const format = levelFormat(quote, state, NO_LOTS, quote.market === 'SPOT' ? undefined : (qty) => toContracts(qty, ctVal));
  const channel = sub.depth ?? 'books';
  const depth = OKX_DEPTH_CHANNELS[channel] ?? 400;
  const bids = okxRows(book.bids, format, depth);
  const asks = okxRows(book.asks, format, depth);
  const ts = String(Date.now());
  if (channel === 'books5') {
    return JSON.stringify({ arg: { channel, instId }, data: [{ asks, bids, instId, ts, seqId: book.id }] });
  }
  const checksum = bookChecksum(bids, asks);
  const changes = delta ? deltaWithin(delta, book, depth) : undefined;
  const data = delta && changes
    ? { asks: okxRows(changes.asks, format), bids: okxRows(changes.bids, format), ts, checksum, prevSeqId: delta.first - 1, seqId: delta.last }
    : { asks, bids, ts, checksum, prevSeqId: -1, seqId: book.id };
  return JSON.stringify({ arg: { channel, instId }, action: delta ? 'update' : 'snapshot', data: [data] });
}
