import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OpportunityHistoryController } from './opportunity-history.controller.js';
import { OpportunityHistoryEntity } from './opportunity-history.entity.js';
import { OpportunityHistoryRepository } from './opportunity-history.repository.js';
import { OpportunityHistoryService } from './opportunity-history.service.js';

/** Exports the repository so the live recorder (market data) writes through the same upsert. */
@Module({
  imports: [TypeOrmModule.forFeature([OpportunityHistoryEntity])],
  controllers: [OpportunityHistoryController],
  providers: [OpportunityHistoryRepository, OpportunityHistoryService],
  exports: [OpportunityHistoryRepository],
})
export class OpportunityHistoryModule {}
