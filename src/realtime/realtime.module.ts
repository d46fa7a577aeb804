import { Module } from '@nestjs/common';
import { OpportunityStreamService } from './opportunity-stream.service.js';
import { PriceSnapshotService } from './price-snapshot.service.js';
import { RealtimeController } from './realtime.controller.js';

@Module({
  controllers: [RealtimeController],
  providers: [OpportunityStreamService, PriceSnapshotService],
})
export class RealtimeModule {}
