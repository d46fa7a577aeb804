import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OpportunityHistoryController } from './opportunity-history.controller.js';
import { OpportunityHistoryEntity } from './opportunity-history.entity.js';
import { OpportunityHistoryRepository } from './opportunity-history.repository.js';
import { OpportunityHistoryService } from './opportunity-history.service.js';
import { ROUTE_COSTS_PROVIDER } from './opportunity-history.constants.js';
import { OpportunityRecorderJob } from './opportunity-recorder.job.js';
import { OpportunityRecorderService } from './opportunity-recorder.service.js';
import { MARKET_DATA_SOURCE } from '../market-data/market-data.constants.js';
import type { MarketDataSource } from '../market-data/market-data-source.js';
import { MarketCostsBook } from './market-costs.book.js';
import { MarketCostsJob } from './market-costs.job.js';

/**
 * History store, import, stats, backtest and the live recorder, which reads the global quote
 * book. Route costs come from the market-data source's fees and networks where it offers them,
 * else the D8 defaults.
 */
@Module({
  imports: [TypeOrmModule.forFeature([OpportunityHistoryEntity])],
  controllers: [OpportunityHistoryController],
  providers: [
    OpportunityHistoryRepository,
    OpportunityHistoryService,
    OpportunityRecorderService,
    OpportunityRecorderJob,
    { provide: MarketCostsBook, inject: [MARKET_DATA_SOURCE], useFactory: (source: MarketDataSource) => new MarketCostsBook(source) },
    { provide: ROUTE_COSTS_PROVIDER, useExisting: MarketCostsBook },
    MarketCostsJob,
  ],
  exports: [OpportunityHistoryRepository],
})
export class OpportunityHistoryModule {}
