import { isExchangeName } from '../market-model/exchanges.js';
import type { MarketRef } from '../market-data/market-table.js';

/**
 * Ticks cross from the ingest process to API instances in the ingest workers' compact batch
 * (tick-batch.ts: TICK_STRIDE numbers per market, a market index instead of strings), preceded by
 * one number, the ingest process's epoch. The indexes are those of the ingest process's market
 * table, stored in a Redis hash per epoch as `exchange|market|ticker` (encodeMarketRef), so an
 * instance that starts later (or meets a restarted ingest process) loads the table once and then
 * reads only numbers.
 */
export function decodeMarketRef(text: string): MarketRef | null {
  const [exchange, market, ticker] = text.split('|');
  if (!exchange || !isExchangeName(exchange) || (market !== 'SPOT' && market !== 'FUTURES') || !ticker) return null;
  return { exchange, market, ticker };
}

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
