import { Module } from '@nestjs/common';
import { OpportunityHistoryModule } from '../opportunity-history/opportunity-history.module.js';
import { OpportunityStreamService } from './opportunity-stream.service.js';
import { PriceSnapshotService } from './price-snapshot.service.js';
import { RealtimeController } from './realtime.controller.js';

@Module({
  // The opportunity stream hands the route episodes it closes to the history recorder.
  imports: [OpportunityHistoryModule],
  controllers: [RealtimeController],
  providers: [OpportunityStreamService, PriceSnapshotService],
  exports: [OpportunityStreamService],
})
export class RealtimeModule {}
