import { EXCHANGE_NAMES, type ExchangeName } from '../market-model/exchanges.js';
import type { MarketTable } from './market-table.js';
import { TICK_STRIDE } from './ingest/tick-batch.js';

/** Upper bounds of the latency buckets, in ms (the last bucket is +Inf). */
export const LATENCY_BUCKETS_MS = [0.5, 1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000] as const;

export const LATENCY_STAGES = ['exchange_to_worker', 'worker_to_book', 'exchange_to_book'] as const;
export type LatencyStage = (typeof LATENCY_STAGES)[number];

/**
 * Fixed-bucket latency counts per (stage, exchange): observing is a short scan of 13 bounds and
 * two array writes, cheap enough for every tick (prom-client's labelled histogram costs about
 * 0.4 µs per observation, a few % of a tick). Exported as a Prometheus histogram at scrape
 * time by MarketDataMetrics, and read directly by benchmarks.
 *
 * Stages: `exchange_to_worker` is the exchange's own timestamp to the ingest worker's receive
 * time (only for messages that carry one; it includes clock skew with the venue),
 * `worker_to_book` the receive time to the serving thread's quote book (batching, the thread
 * crossing, the event loop), `exchange_to_book` the two together.
 */
export class TickLatency {
  private readonly counts = new Float64Array(LATENCY_STAGES.length * EXCHANGE_NAMES.length * (LATENCY_BUCKETS_MS.length + 1));
  private readonly sums = new Float64Array(LATENCY_STAGES.length * EXCHANGE_NAMES.length);
  private readonly exchangeIndex = new Map<ExchangeName, number>(EXCHANGE_NAMES.map((e, i) => [e, i]));

  /** Records the stages of every entry of a tick batch as it reaches the quote book at `now` (unknown markets skipped). */
  recordBatch(batch: Float64Array, table: MarketTable, now: number): void {
    for (let o = 0; o + TICK_STRIDE <= batch.length; o += TICK_STRIDE) {
      const e = table.exchangeIndexAt(batch[o]);
      if (e < 0) continue;
      const receivedAt = batch[o + 6];
      const exchangeTime = batch[o + 5];
      this.observe(1, e, now - receivedAt);
      if (Number.isNaN(exchangeTime)) continue;
      this.observe(0, e, receivedAt - exchangeTime);
      this.observe(2, e, now - exchangeTime);
    }
  }

  /** Cumulative counts per bucket (Prometheus `le` semantics), its sum in ms and count. */
  read(stage: LatencyStage, exchange: ExchangeName): { buckets: number[]; sumMs: number; count: number } {
    const row = LATENCY_STAGES.indexOf(stage) * EXCHANGE_NAMES.length + (this.exchangeIndex.get(exchange) ?? 0);
    const width = LATENCY_BUCKETS_MS.length + 1;
    const buckets: number[] = [];
    let running = 0;
    for (let b = 0; b < width; b++) buckets.push((running += this.counts[row * width + b] ?? 0));
    return { buckets, sumMs: this.sums[row] ?? 0, count: running };
  }

  /** The smallest bucket bound below which at least `p` percent of the stage's ticks fall (all exchanges). */
  percentileMs(stage: LatencyStage, p: number): number | null {
    const total = new Array<number>(LATENCY_BUCKETS_MS.length + 1).fill(0);
    for (const exchange of EXCHANGE_NAMES) this.read(stage, exchange).buckets.forEach((c, b) => (total[b] = (total[b] ?? 0) + c));
    const count = total[total.length - 1] ?? 0;
    if (count === 0) return null;
    const b = total.findIndex((c) => c >= (p / 100) * count);
    return b < LATENCY_BUCKETS_MS.length ? (LATENCY_BUCKETS_MS[b] ?? null) : Infinity;
  }

  private observe(stage: number, exchange: number, ms: number): void {
    const row = stage * EXCHANGE_NAMES.length + exchange;
    let b = 0;
    while (b < LATENCY_BUCKETS_MS.length && ms > (LATENCY_BUCKETS_MS[b] ?? Infinity)) b++;
    this.counts[row * (LATENCY_BUCKETS_MS.length + 1) + b]++;
    this.sums[row] += ms;
  }
}
