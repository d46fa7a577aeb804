import type { BacktestSample } from './backtest.engine.js';

/**
 * A page of backtest samples travels as ONE bytea value: fixed-size big-endian records built by
 * PostgreSQL (float8send/int2send). Turning rows into JS objects through pg's text protocol cost
 * about 5 µs of CPU per row (one parse per value, one row object per row); one hex decode per
 * page and DataView reads cost a small fraction of that, on pg and PGlite alike.
 */

/** time (epoch ms), gross %, buy fee %, sell fee %, withdrawal fee USD: five float8; flags: one int2. */
export const PACKED_SAMPLE_BYTES = 5 * 8 + 2;
const FEES_ESTIMATED = 2;
const EXECUTABLE = 1;

/** One record per row of a relation with the columns of opportunity_history plus `ts`. */
export const PACKED_SAMPLE_SQL = `float8send(round(date_part('epoch', ts) * 1000)) || float8send(gross_spread_percent)
  || float8send(buy_fee_percent) || float8send(sell_fee_percent) || float8send(withdrawal_fee_usd)
  || int2send((fees_estimated::int * ${FEES_ESTIMATED} + executable::int * ${EXECUTABLE})::int2)`;

/**
 * The page's samples oldest first. PostgreSQL aggregates a sorted page in its order, but SQL does
 * not promise it without an ORDER BY inside the aggregate (which sorts again), so the order is
 * checked here in O(n) and restored if a plan ever differs.
 */
export function unpackSamples(bytes: Uint8Array): BacktestSample[] {
  if (bytes.byteLength % PACKED_SAMPLE_BYTES !== 0) {
    throw new Error(`packed samples: ${bytes.byteLength} bytes is not a whole number of records`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const samples = new Array<BacktestSample>(bytes.byteLength / PACKED_SAMPLE_BYTES);
  for (let i = 0, at = 0; i < samples.length; i++, at += PACKED_SAMPLE_BYTES) {
    const flags = view.getInt16(at + 40);
    samples[i] = {
      time: view.getFloat64(at),
      grossSpreadPercent: view.getFloat64(at + 8),
      buyFeePercent: view.getFloat64(at + 16),
      sellFeePercent: view.getFloat64(at + 24),
      withdrawalFeeUsd: view.getFloat64(at + 32),
      feesEstimated: (flags & FEES_ESTIMATED) !== 0,
      executable: (flags & EXECUTABLE) !== 0,
    };
  }
  return inTimeOrder(samples);
}

function inTimeOrder(samples: BacktestSample[]): BacktestSample[] {
  for (let i = 1; i < samples.length; i++) {
    if (samples[i].time < samples[i - 1].time) return samples.sort((a, b) => a.time - b.time);
  }
  return samples;
}
