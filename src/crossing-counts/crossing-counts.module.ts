import { type DynamicModule, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CrossingCountEntity } from './crossing-count.entity.js';
import { CrossingCountJob } from './crossing-count.job.js';
import { CrossingCountRepository } from './crossing-count.repository.js';
import { CrossingCountWorker } from './crossing-count.worker.js';
import { CrossingCountsController } from './crossing-counts.controller.js';
import { CrossingCountMetrics } from './crossing-counts.metrics.js';
import { CrossingCountsService } from './crossing-counts.service.js';

/**
 * Crossing counts (rules: crossing-counts). Samples come from MarketDataModule (global). The daily job is
 * a provider only when enabled (CROSSING_JOB_ENABLED), so switching it off leaves no timer.
 */
@Module({})
export class CrossingCountsModule {
  static register(options: { dailyJob: boolean }): DynamicModule {
    return {
      module: CrossingCountsModule,
      imports: [TypeOrmModule.forFeature([CrossingCountEntity]), ...(options.dailyJob ? [ScheduleModule.forRoot()] : [])],
      controllers: [CrossingCountsController],
      providers: [
        CrossingCountRepository,
        CrossingCountWorker,
        CrossingCountMetrics,
        CrossingCountsService,
        ...(options.dailyJob ? [CrossingCountJob] : []),
      ],
    };
  }
}
