import { Inject, Injectable } from '@nestjs/common';
import { Counter, Gauge, type Registry } from 'prom-client';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { MetricsService } from '../common/metrics/metrics.service.js';
import type { ExchangeName } from '../market-model/exchanges.js';
import { MARKET_DATA_SOURCE } from './market-data.constants.js';
import type { MarketDataSource } from './market-data-source.js';
import type { IngestCounters } from './ingest/worker-market-data.source.js';
import { MarketDataService } from './market-data.service.js';
import { QuoteBook } from './quote-book.js';
import { LATENCY_BUCKETS_MS, LATENCY_STAGES, TickLatency } from './tick-latency.js';

/**
 * Market-data metrics, computed at scrape time from the book and the feed health so the tick
 * path pays nothing for them (a labelled counter increment per tick would cost more than the
 * book update itself).
 */
@Injectable()
export class MarketDataMetrics {
  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    metrics: MetricsService,
    book: QuoteBook,
    feeds: MarketDataService,
    latency: TickLatency,
    @Inject(MARKET_DATA_SOURCE) source: MarketDataSource,
  ) {
    const exchanges: readonly ExchangeName[] = config.marketData.exchanges;
    const reported = new Map<string, number>();
    const catchUp = (counter: Counter<'exchange'>, key: string, exchange: ExchangeName, total: number): void => {
      const delta = total - (reported.get(key) ?? 0);
      counter.inc({ exchange }, Math.max(0, delta)); // also 0: every exchange has a series from the first scrape
      reported.set(key, total);
    };
    new Counter({
      name: 'market_ticks_total',
      help: 'Quote ticks received, per exchange',
      labelNames: ['exchange'] as const,
      registers: [metrics.registry],
      collect() {
        for (const e of exchanges) catchUp(this, `ticks:${e}`, e, book.tickCounts[e]);
      },
    });
    /** A per-exchange counter over one of the workers' summed counts. */
    const ingestCounter = (name: string, help: string, count: 'received' | 'conflated' | 'bookMessages'): void => {
      new Counter({
        name,
        help,
        labelNames: ['exchange'] as const,
        registers: [metrics.registry],
        collect() {
          const counts = source.ingestCounters?.();
          if (counts) for (const e of exchanges) catchUp(this, `${count}:${e}`, e, counts[count][e]);
        },
      });
    };
    ingestCounter('market_ingest_received_total', 'Quotes the ingest workers received from the exchanges, per exchange (before conflation)', 'received');
    ingestCounter('market_ingest_conflated_total', 'Quotes overwritten by a newer quote of the same market within one worker batch, per exchange', 'conflated');
    ingestCounter('market_depth_messages_total', 'Messages the ingest workers received on the order-book (depth) sockets, per exchange', 'bookMessages');
    const workerGauge = (name: string, help: string, read: (w: IngestCounters['workers'][number]) => number): void => {
      new Gauge({
        name,
        help,
        labelNames: ['worker'] as const,
        registers: [metrics.registry],
        collect() {
          for (const w of source.ingestCounters?.().workers ?? []) this.set({ worker: w.exchanges.join(',') }, read(w));
        },
      });
    };
    workerGauge('market_ingest_worker_event_loop_delay_p99_seconds', 'Event-loop delay p99 of each ingest worker over its last report (1 s)', (w) => w.loopDelayP99Ms / 1000);
    workerGauge('market_ingest_worker_heap_bytes', 'V8 heap used by each ingest worker', (w) => w.heapUsedBytes);
    workerGauge('market_ingest_worker_cpu_seconds', 'CPU time of each ingest worker thread since it started', (w) => w.cpuMicros / 1e6);
    workerGauge('market_ingest_worker_restarts', 'Times each ingest worker was restarted after dying', (w) => w.restarts);
    registerLatencyHistogram(metrics.registry, exchanges, latency);
    new Counter({
      name: 'market_feed_reconnects_total',
      help: 'Websocket feed reconnects (drops and silence), per exchange',
      labelNames: ['exchange'] as const,
      registers: [metrics.registry],
      collect() {
        const report = feeds.healthReport();
        for (const e of exchanges) catchUp(this, `reconnects:${e}`, e, report[e]?.reconnects ?? 0);
      },
    });
    new Gauge({
      name: 'market_feed_connected',
      help: '1 while every feed connection of the exchange is up',
      labelNames: ['exchange'] as const,
      registers: [metrics.registry],
      collect() {
        const report = feeds.healthReport();
        for (const e of exchanges) this.set({ exchange: e }, report[e]?.connected ? 1 : 0);
      },
    });
    new Gauge({
      name: 'market_stale_quotes',
      help: 'Quotes in the book whose last tick is older than 10 s (stale)',
      registers: [metrics.registry],
      collect() {
        this.set(book.countStale());
      },
    });
  }
}

/**
 * `market_tick_latency_seconds{stage,exchange}`: TickLatency's fixed buckets as a Prometheus
 * histogram, read at scrape time (prom-client's Histogram has no way to take counts in bulk,
 * and observing through it per tick costs more than the rest of the tick's serving-side path).
 */
function registerLatencyHistogram(registry: Registry, exchanges: readonly ExchangeName[], latency: TickLatency): void {
  const name = 'market_tick_latency_seconds';
  const metric = {
    name,
    help: 'Latency of quote ticks per stage: exchange timestamp -> ingest worker -> quote book',
    type: 'histogram',
    aggregator: 'sum',
    get: () => {
      const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
      for (const stage of LATENCY_STAGES) {
        for (const exchange of exchanges) {
          const { buckets, sumMs, count } = latency.read(stage, exchange);
          buckets.forEach((value, b) => {
            const le = b < LATENCY_BUCKETS_MS.length ? (LATENCY_BUCKETS_MS[b] ?? 0) / 1000 : '+Inf';
            values.push({ labels: { stage, exchange, le }, value, metricName: `${name}_bucket` });
          });
          values.push({ labels: { stage, exchange }, value: sumMs / 1000, metricName: `${name}_sum` });
          values.push({ labels: { stage, exchange }, value: count, metricName: `${name}_count` });
        }
      }
      return Promise.resolve({ name, help: metric.help, type: metric.type, values, aggregator: metric.aggregator });
    },
  };
  registry.registerMetric(metric as unknown as Parameters<Registry['registerMetric']>[0]);
}
