import { Logger } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { Test } from '@nestjs/testing';
import { ScheduleModule, SchedulerRegistry } from '@nestjs/schedule';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MetricsService } from '../common/metrics/metrics.service.js';
import type { Clock } from '../market-data/clock.js';
import { CROSSING_JOB_NAME, CrossingCountJob } from './crossing-count.job.js';
import type { CrossingCountRepository } from './crossing-count.repository.js';
import type { CrossingCountWorker, DayResult } from './crossing-count.worker.js';
import { CrossingCountMetrics } from './crossing-counts.metrics.js';
import { CrossingCountsModule } from './crossing-counts.module.js';
import { CrossingCountsService } from './crossing-counts.service.js';
import { IngestLease } from '../redis/ingest-lease.js';
import { soloLease } from '../redis/testing/solo-lease.js';

/** A worker whose runs finish only when the test says so, recording how many overlap. */
class GatedWorker {
  readonly started: string[] = [];
  running = 0;
  maxRunning = 0;
  private readonly gates: (() => void)[] = [];
  fail = false;

  async countDay(processingDate: string): Promise<DayResult> {
    this.started.push(processingDate);
    this.maxRunning = Math.max(this.maxRunning, ++this.running);
    await new Promise<void>((resolve) => this.gates.push(resolve));
    this.running--;
    if (this.fail) throw new Error('relation "crossing_counts" does not exist');
    return { processingDate, groups: 1, samples: 10 };
  }

  finishNext(): void {
    this.gates.shift()?.();
  }
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function build(now: number) {
  const worker = new GatedWorker();
  const metrics = new CrossingCountMetrics(new MetricsService());
  const clock: Clock = { now: () => now };
  const repository = {} as CrossingCountRepository; // the read path is covered by the e2e specs
  const service = new CrossingCountsService(worker as unknown as CrossingCountWorker, repository, metrics, clock, { marketData: { exchanges: ['binance'] } } as AppConfig);
  return { worker, metrics, service };
}

const AT_0010_SAO_PAULO = Date.UTC(2026, 2, 10, 3, 10); // 2026-03-10T00:10-03:00

describe('CrossingCountsService: scheduling of runs', () => {
  it('answers at once and starts the run only after the current turn (the 202 goes out first)', async () => {
    const { worker, service } = build(AT_0010_SAO_PAULO);
    expect(service.accept({ date: '2026-03-01' })).toEqual({ processingDate: '2026-03-01', status: 'accepted' });
    await Promise.resolve();
    expect(worker.started).toEqual([]); // not even after the handler's microtasks
    await flush();
    expect(worker.started).toEqual(['2026-03-01']);
    worker.finishNext();
  });

  it('runs of one date never overlap; requests during a run join ONE queued re-run', async () => {
    const { worker, service } = build(AT_0010_SAO_PAULO);
    const first = service.schedule('2026-03-01');
    await flush();
    const second = service.schedule('2026-03-01');
    const third = service.schedule('2026-03-01');
    expect(third).toBe(second);
    worker.finishNext();
    await first;
    await flush();
    expect(worker.started).toEqual(['2026-03-01', '2026-03-01']);
    worker.finishNext();
    await second;
    expect(worker.maxRunning).toBe(1);
  });

  it('different dates run side by side', async () => {
    const { worker, service } = build(AT_0010_SAO_PAULO);
    const runs = [service.schedule('2026-03-01'), service.schedule('2026-03-02')];
    await flush();
    expect(worker.running).toBe(2);
    worker.finishNext();
    worker.finishNext();
    await Promise.all(runs);
  });

  it('a failed run never rejects: it is counted in crossing_count_job_failures_total and timed', async () => {
    const { worker, metrics, service } = build(AT_0010_SAO_PAULO);
    const logged = vi.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    worker.fail = true;
    const run = service.schedule('2026-03-01');
    await flush();
    worker.finishNext();
    await expect(run).resolves.toBeUndefined();
    expect((await metrics.failures.get()).values[0]?.value).toBe(1);
    const durations = await metrics.duration.get();
    expect(durations.values.find((v) => v.metricName?.endsWith('_count') && v.labels.outcome === 'failure')?.value).toBe(1);
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ msg: 'crossing-count job failed', processingDate: '2026-03-01' }));
    logged.mockRestore();
  });

  it('the daily run processes the previous São Paulo day', async () => {
    const { worker, service } = build(AT_0010_SAO_PAULO);
    const run = service.runPreviousDay();
    await flush();
    expect(worker.started).toEqual(['2026-03-09']);
    worker.finishNext();
    await run;
  });

  it('the previous day is a calendar day even across a DST change (São Paulo, 2018-11-04 began at 01:00)', async () => {
    const { worker, service } = build(Date.UTC(2018, 10, 5, 2, 10)); // 2018-11-05T00:10-02:00
    const run = service.runPreviousDay();
    await flush();
    expect(worker.started).toEqual(['2018-11-04']);
    worker.finishNext();
    await run;
  });
});

describe('CrossingCountJob: the daily schedule (rules: crossing-counts)', () => {
  afterEach(() => vi.useRealTimers());

  it('fires at 00:10 America/Sao_Paulo', async () => {
    const runPreviousDay = vi.fn(() => Promise.resolve());
    const moduleRef = await Test.createTestingModule({
      imports: [ScheduleModule.forRoot()],
      providers: [CrossingCountJob, { provide: CrossingCountsService, useValue: { runPreviousDay } }, { provide: IngestLease, useValue: soloLease() }],
    }).compile();
    await moduleRef.init();
    try {
      const job = moduleRef.get(SchedulerRegistry).getCronJob(CROSSING_JOB_NAME);
      // From 2026-03-10 12:00 São Paulo the next run is 2026-03-11 00:10 São Paulo = 03:10 UTC.
      vi.useFakeTimers({ now: Date.UTC(2026, 2, 10, 15), toFake: ['Date'] });
      expect(job.nextDate().toUTC().toISO()).toBe('2026-03-11T03:10:00.000Z');
    } finally {
      await moduleRef.close();
    }
  });

  it('CROSSING_JOB_ENABLED off: the job is not even provided', () => {
    expect(CrossingCountsModule.register({ dailyJob: true }).providers).toContain(CrossingCountJob);
    expect(CrossingCountsModule.register({ dailyJob: false }).providers).not.toContain(CrossingCountJob);
  });
});

describe('CrossingCountJob across instances', () => {
  it('counts only in the process holding the ingest lease', async () => {
    const runPreviousDay = vi.fn(() => Promise.resolve());
    const service = { runPreviousDay } as unknown as CrossingCountsService;
    await new CrossingCountJob(service, { holds: false } as IngestLease).runDaily();
    expect(runPreviousDay).not.toHaveBeenCalled();
    await new CrossingCountJob(service, soloLease()).runDaily();
    expect(runPreviousDay).toHaveBeenCalledTimes(1);
  });
});
