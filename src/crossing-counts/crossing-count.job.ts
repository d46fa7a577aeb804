import { Injectable } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { SAO_PAULO } from '../common/time/sao-paulo.js';
import { CrossingCountsService } from './crossing-counts.service.js';
import { IngestLease } from '../redis/ingest-lease.js';

/** The `funding` rule: every day at 00:10 in São Paulo (minute 10, hour 0). */
export const CROSSING_JOB_CRON = '10 0 * * *';
export const CROSSING_JOB_NAME = 'crossing-counts-daily';

/**
 * Thin scheduler for the daily run of the previous São Paulo day. It is only provided when
 * CROSSING_JOB_ENABLED is on (CrossingCountsModule.register), so "off" means no timer at all.
 */
@Injectable()
export class CrossingCountJob {
  constructor(
    private readonly service: CrossingCountsService,
    private readonly lease: IngestLease,
  ) {}

  @Cron(CROSSING_JOB_CRON, { name: CROSSING_JOB_NAME, timeZone: SAO_PAULO, waitForCompletion: true })
  runDaily(): Promise<void> {
    // Every instance has the cron; only the ingest lease holder counts.
    return this.lease.holds ? this.service.runPreviousDay() : Promise.resolve();
  }
}
