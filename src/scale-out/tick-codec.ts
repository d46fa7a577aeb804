import { EXCHANGE_NAMES, type ExchangeName, type Market, isExchangeName } from '../market-data/exchanges.js';
import type { QuoteTick } from '../market-data/market-data-source.js';
import { forEachTick } from '../market-data/ingest/tick-batch.js';

/**
 * Issue 20: ticks cross from the ingest process to API instances in the ingest workers' compact
 * batch (tick-batch.ts: TICK_STRIDE numbers per market, a market index instead of strings),
 * preceded by one number, the ingest process's epoch. Indexes are assigned by the ingest process
 * and stored in a Redis hash per epoch, so an instance that starts later (or meets a restarted
 * ingest process) loads the table once and then reads only numbers.
 */
export interface MarketRef {
  readonly exchange: ExchangeName;
  readonly market: Market;
  readonly ticker: string;
}

export function encodeMarketRef(ref: MarketRef): string {
  return `${ref.exchange}|${ref.market}|${ref.ticker}`;
}

export function decodeMarketRef(text: string): MarketRef | null {
  const [exchange, market, ticker] = text.split('|');
  if (!exchange || !isExchangeName(exchange) || (market !== 'SPOT' && market !== 'FUTURES') || !ticker) return null;
  return { exchange, market, ticker };
}

/** Ingest side: a stable index per market for this epoch. */
export class MarketIndex {
  private readonly indexes = new Map<string, number>();

  /** The market's index, and whether it was just assigned (then it must be stored before use). */
  indexOf(ref: MarketRef): { index: number; added: boolean } {
    const key = encodeMarketRef(ref);
    const known = this.indexes.get(key);
    if (known !== undefined) return { index: known, added: false };
    const index = this.indexes.size;
    this.indexes.set(key, index);
    return { index, added: true };
  }

  /** Every assigned index as `index -> exchange|market|ticker`, to write the whole table again. */
  table(): Record<string, string> {
    return Object.fromEntries([...this.indexes].map(([key, index]) => [String(index), key]));
  }
}

export const exchangeIndex = (exchange: ExchangeName): number => EXCHANGE_NAMES.indexOf(exchange);

export function encodeBatch(epoch: number, batch: Float64Array): Buffer {
  const out = new Float64Array(batch.length + 1);
  out[0] = epoch;
  out.set(batch, 1);
  return Buffer.from(out.buffer);
}

export function decodeBatch(message: Buffer): { epoch: number; batch: Float64Array } | null {
  if (message.byteLength < 8 || message.byteLength % 8 !== 0) return null;
  // Copied: a Float64Array needs an 8-byte aligned offset, which a received Buffer need not have.
  const all = new Float64Array(message.buffer.slice(message.byteOffset, message.byteOffset + message.byteLength));
  return { epoch: all[0], batch: all.subarray(1) };
}

/** API side: the ticks of one batch, with the markets the table knows; unknown indexes are counted. */
export function ticksOf(batch: Float64Array, table: ReadonlyMap<number, MarketRef>, onTick: (tick: QuoteTick) => void): number {
  let unknown = 0;
  forEachTick(batch, (index, bid, ask, bidQty, askQty, exchangeTime, receivedAt) => {
    const ref = table.get(index);
    if (!ref) {
      unknown += 1;
      return;
    }
    onTick({ exchange: ref.exchange, market: ref.market, ticker: ref.ticker, bid, ask, bidQty, askQty, exchangeTime, receivedAt });
  });
  return unknown;
}
