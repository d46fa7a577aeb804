import { afterEach, describe, expect, it } from 'vitest';
import { IngestLease, type LeaseTiming } from '../../src/redis/ingest-lease.js';
import { RedisLink } from '../../src/redis/redis-link.js';
import { scaleOutConfig, testRedisPrefix } from '../utils/test-redis.js';
import { sleep, until as waitUntil } from '../utils/wait.js';

const TIMING: LeaseTiming = { ttlMs: 400, renewMs: 100 };

/** Scale-out: scheduled work runs in one ingest process; a second takes over only when the first is gone. */
describe('IngestLease on a real Redis', () => {
  const redis = testRedisPrefix();
  const links: RedisLink[] = [];
  const leases: IngestLease[] = [];

  const lease = (role: 'all' | 'ingest' | 'api'): { lease: IngestLease; started: () => number } => {
    const config = scaleOutConfig(role, redis.prefix);
    const link = new RedisLink(config);
    const l = new IngestLease(config, link, TIMING);
    links.push(link);
    leases.push(l);
    let starts = 0;
    void l.run(() => {
      starts += 1;
    });
    return { lease: l, started: () => starts };
  };

  afterEach(async () => {
    await Promise.all(leases.splice(0).map((l) => l.onApplicationShutdown()));
    await Promise.all(links.splice(0).map((l) => l.onApplicationShutdown()));
    await redis.drop();
  });

  const until = (check: () => boolean, ms = 3000): Promise<boolean> => waitUntil(check, Boolean, ms, 20);

  it('ROLE=all starts at once without Redis; ROLE=api never starts', async () => {
    const all = lease('all');
    const api = lease('api');
    expect(all.started()).toBe(1);
    await sleep(300); // time: an api-role process must not start the jobs in this time (it never will)
    expect(api.started()).toBe(0);
    expect(api.lease.holds).toBe(false);
  });

  it('a second ingest process waits while the first renews, and takes over after a clean stop', async () => {
    const first = lease('ingest');
    await until(() => first.started() === 1);
    const second = lease('ingest');
    await sleep(TIMING.ttlMs * 2); // time: two lease lifetimes pass while the first holder renews it
    expect(second.started()).toBe(0);
    await first.lease.onApplicationShutdown();
    await until(() => second.started() === 1);
    expect(second.lease.holds).toBe(true);
  });

  it('takes over from an ingest process that died (stopped renewing) once its lease expires', async () => {
    const first = lease('ingest');
    await until(() => first.started() === 1);
    // A crash: renewals stop and nothing releases the key.
    await links[0].onApplicationShutdown();
    const second = lease('ingest');
    const t0 = Date.now();
    await until(() => second.started() === 1);
    expect(Date.now() - t0).toBeLessThan(TIMING.ttlMs + 500);
  });

  it('several jobs waiting on one lease start once each, and the lease is not lost to itself', async () => {
    const config = scaleOutConfig('ingest', redis.prefix);
    const link = new RedisLink(config);
    const l = new IngestLease(config, link, TIMING);
    links.push(link);
    leases.push(l);
    const starts = [0, 0, 0];
    starts.forEach((_, i) => void l.run(() => void (starts[i] += 1)));
    await until(() => starts.every((n) => n === 1));
    await sleep(TIMING.ttlMs * 2); // time: two lease lifetimes pass and the process keeps its own lease
    expect(l.holds).toBe(true);
    expect(starts).toEqual([1, 1, 1]);
  });
});
