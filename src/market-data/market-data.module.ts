import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { type Clock, systemClock } from './clock.js';
import { DEFAULT_BATCH_POLICY } from './ingest/tick-batch.js';
import { WorkerMarketDataSource } from './ingest/worker-market-data.source.js';
import { ingestWorkerScript } from './ingest/worker-script.js';
import { MARKET_CLOCK, MARKET_DATA_SOURCE, QUOTE_TICK_BUS } from './market-data.constants.js';
import type { MarketDataSource } from './market-data-source.js';
import { FundingRateBook } from './funding-rate-book.js';
import { MarketDataMetrics } from './market-data.metrics.js';
import { MarketDataService } from './market-data.service.js';
import { MarketCostsBook } from './market-costs.book.js';
import { MarketCostsJob } from './market-costs.job.js';
import { MarketHealthController } from './market-health.controller.js';
import { NameCollisions } from './name-collisions.js';
import { MarketSampleRepository } from './market-sample.repository.js';
import { QuoteBook } from './quote-book.js';
import { InProcessQuoteTickBus, type QuoteTickBus } from './quote-tick-bus.js';
import { SampleRecorderJob } from './sample-recorder.job.js';
import { TickLatency } from './tick-latency.js';
import { FeedHealthMirror } from './feed-health-mirror.js';
import { MarketTable } from './market-table.js';
import { DepthService } from './depth/depth.service.js';
import { MarketBooksController } from './depth/market-books.controller.js';

/**
 * The market-data core: source (ccxt), quote book, route costs book, tick bus, feed health and
 * the sample recorder. Global, so feature modules inject QuoteBook / QUOTE_TICK_BUS / MarketSampleRepository
 * without importing it; tests replace MARKET_DATA_SOURCE with a fake.
 */
@Global()
@Module({
  controllers: [MarketHealthController, MarketBooksController],
  providers: [
    { provide: MARKET_CLOCK, useValue: systemClock },
    { provide: QUOTE_TICK_BUS, useFactory: (): QuoteTickBus => new InProcessQuoteTickBus() },
    // One market table per process: the source's, which its batches' market indexes refer to.
    { provide: MarketTable, inject: [MARKET_DATA_SOURCE], useFactory: (source: MarketDataSource) => source.marketTable },
    {
      provide: QuoteBook,
      inject: [QUOTE_TICK_BUS, MARKET_CLOCK, MarketTable],
      useFactory: (bus: QuoteTickBus, clock: Clock, table: MarketTable) => new QuoteBook(bus, clock, table),
    },
    {
      provide: MARKET_DATA_SOURCE,
      inject: [APP_CONFIG, MARKET_CLOCK],
      useFactory: ({ marketData: c }: AppConfig, clock: Clock) =>
        new WorkerMarketDataSource({
          workers: c.ingestWorkers,
          heapMb: c.ingestWorkerHeapMb,
          exchanges: c.exchanges,
          credentials: c.credentials,
          worker: {
            simulatorUrl: c.simulatorUrl,
            exchangeUrls: c.exchangeUrls,
            silenceTimeoutMs: c.silenceTimeoutMs,
            backoff: { baseMs: c.reconnectBaseMs, maxMs: c.reconnectMaxMs },
            marketsRefreshMs: c.marketsRefreshMs,
            batch: DEFAULT_BATCH_POLICY,
            statsIntervalMs: 1000,
          },
          script: ingestWorkerScript(),
          clock,
          restart: { baseMs: c.reconnectBaseMs, maxMs: c.reconnectMaxMs },
        }),
    },
    {
      provide: NameCollisions,
      inject: [APP_CONFIG, QuoteBook, MARKET_CLOCK, MarketCostsBook],
      useFactory: ({ marketData: c }: AppConfig, book: QuoteBook, clock: Clock, costs: MarketCostsBook) =>
        new NameCollisions({ spreadPercent: c.nameCollisionSpreadPercent, minDurationMs: c.nameCollisionMinMs }, book, clock, { contracts: costs, denylist: c.denylist }),
    },
    FundingRateBook,
    TickLatency,
    { provide: FeedHealthMirror, useFactory: () => new FeedHealthMirror() },
    MarketDataService,
    MarketDataMetrics,
    MarketSampleRepository,
    SampleRecorderJob,
    // Route costs (fees, networks) are market data too: the history recorder and the live stream read them.
    { provide: MarketCostsBook, inject: [MARKET_DATA_SOURCE], useFactory: (source: MarketDataSource) => new MarketCostsBook(source) },
    MarketCostsJob,
    // Order books of open routes' legs: held by the ingest workers, sized into the stream's events.
    DepthService,
  ],
  exports: [DepthService, FeedHealthMirror, FundingRateBook, MarketCostsBook, NameCollisions, MARKET_CLOCK, QUOTE_TICK_BUS, QuoteBook, MARKET_DATA_SOURCE, MarketTable, MarketDataService, MarketSampleRepository],
})
export class MarketDataModule {}
