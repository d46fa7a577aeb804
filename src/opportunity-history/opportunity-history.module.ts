import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OpportunityHistoryController } from './opportunity-history.controller.js';
import { OpportunityHistoryEntity } from './opportunity-history.entity.js';
import { OpportunityHistoryRepository } from './opportunity-history.repository.js';
import { OpportunityHistoryService } from './opportunity-history.service.js';
import { ROUTE_COSTS_PROVIDER } from './opportunity-history.constants.js';
import { OpportunityRecorderJob } from './opportunity-recorder.job.js';
import { OpportunityRecorderService } from './opportunity-recorder.service.js';
import { DefaultRouteCosts } from './route-costs.js';

/**
 * History store, import, stats, backtest and the live recorder, which reads the global quote
 * book. Route costs are the D8 defaults until the market-data source offers fees and networks.
 */
@Module({
  imports: [TypeOrmModule.forFeature([OpportunityHistoryEntity])],
  controllers: [OpportunityHistoryController],
  providers: [
    OpportunityHistoryRepository,
    OpportunityHistoryService,
    OpportunityRecorderService,
    OpportunityRecorderJob,
    { provide: ROUTE_COSTS_PROVIDER, useClass: DefaultRouteCosts },
  ],
  exports: [OpportunityHistoryRepository],
})
export class OpportunityHistoryModule {}
