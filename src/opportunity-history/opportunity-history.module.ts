import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OpportunityHistoryController } from './opportunity-history.controller.js';
import { OpportunityHistoryEntity } from './opportunity-history.entity.js';
import { OpportunityHistoryRepository } from './opportunity-history.repository.js';
import { OpportunityHistoryService } from './opportunity-history.service.js';
import { ROUTE_COSTS_PROVIDER } from './opportunity-history.constants.js';
import { OpportunityRecorderJob } from './opportunity-recorder.job.js';
import { OpportunityRecorderService } from './opportunity-recorder.service.js';
import { RouteEpisodeEntity } from './route-episode.entity.js';
import { RouteEpisodeRecorder } from './route-episode-recorder.service.js';
import { RouteEpisodeRepository } from './route-episode.repository.js';
import { RouteEpisodeQueue } from './route-episodes.js';
import { RouteChangeQueue } from './route-changes.js';
import { MarketCostsBook } from '../market-data/market-costs.book.js';

/**
 * History store, import, stats, backtest, route lifetimes and the live recorder, which reads the
 * global quote book and stores the route episodes the live stream closes. Route costs come from
 * the costs book of the market data (exchange fees and networks, else the `recorders` rule defaults).
 */
@Module({
  imports: [TypeOrmModule.forFeature([OpportunityHistoryEntity, RouteEpisodeEntity])],
  controllers: [OpportunityHistoryController],
  providers: [
    OpportunityHistoryRepository,
    OpportunityHistoryService,
    OpportunityRecorderService,
    OpportunityRecorderJob,
    { provide: ROUTE_COSTS_PROVIDER, useExisting: MarketCostsBook },
    RouteEpisodeQueue,
    RouteChangeQueue,
    RouteEpisodeRepository,
    RouteEpisodeRecorder,
  ],
  // The live opportunity stream hands the episodes it closes and the spreads it shows to the queues.
  exports: [OpportunityHistoryRepository, RouteEpisodeQueue, RouteChangeQueue],
})
export class OpportunityHistoryModule {}
