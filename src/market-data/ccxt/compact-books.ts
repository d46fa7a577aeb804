import type { Exchange } from 'ccxt';

/** The part of a ccxt order-book side this touches: its sorted price index (not enumerable). */
interface IndexedSide {
  index: Float64Array;
  length: number;
}

interface CcxtBook {
  bids: IndexedSide;
  asks: IndexedSide;
}

const FACTORIES = ['orderBook', 'indexedOrderBook', 'countedOrderBook'] as const;

/**
 * ccxt seeds every order-book side with a 1,024-row price index (8 KB), so a book costs 16 KB of
 * native memory whatever its depth. A worker at 3,020 markets held about 600 one-level books for
 * bybit's quotes (its bid/ask channel is `orderbook.1`) and up to 400 depth books: 14.5 MB of
 * indexes, nearly all of it never used. The client's book factories are wrapped so that each new
 * side's index holds `rows` rows; ccxt grows an index by doubling when a side outgrows it (the
 * same code path as a book deeper than 1,024 levels), so nothing else changes.
 */
export function compactOrderBooks(client: Exchange, rows: number): void {
  const target = client as unknown as Record<(typeof FACTORIES)[number], (...args: unknown[]) => CcxtBook>;
  for (const name of FACTORIES) {
    if (typeof target[name] !== 'function') continue; // a stand-in client without books
    const make = target[name].bind(client);
    target[name] = (...args: unknown[]) => {
      const book = make(...args);
      compact(book.bids, rows);
      compact(book.asks, rows);
      return book;
    };
  }
}

function compact(side: IndexedSide, rows: number): void {
  const n = Math.max(rows, side.length + 1);
  if (side.index.length <= n) return;
  const index = new Float64Array(n).fill(Number.MAX_VALUE);
  index.set(side.index.subarray(0, side.length));
  side.index = index;
}
