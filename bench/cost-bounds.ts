import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWorstCases, seedCostData, worstCases } from '../test/utils/cost-bounds.js';
import { startTestApp, type TestApp } from '../test/utils/test-app.js';

const PARALLEL = 50;
const HEALTH_P99_MS = 100;

/**
 * `npm run bench:cost`: the cases of the CI test (test/e2e/cost-bounds.e2e-spec.ts) on a larger
 * data set: imports of 2,000 rows each. One summary with from=1500-01-01 held the event
 * loop for 7-11 s, so /health and every stream froze while a handful of them ran.
 */
describe('cost bounds: 50 worst-case requests of every client-sized endpoint at once; /health stays fast', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ ARBITRAGE_RATE_LIMIT: '1000000', SAMPLE_INTERVAL_MS: '0', HISTORY_INTERVAL_MS: '0', CROSSING_JOB_ENABLED: '0' });
    await seedCostData(t.baseUrl, 300, 2000);
  });
  afterAll(async () => {
    await t.close();
  });

  it(`${PARALLEL} of each in parallel all succeed, /health p99 < ${HEALTH_P99_MS} ms meanwhile`, async () => {
    const figures = await runWorstCases(t.baseUrl, worstCases(2000), PARALLEL);
    console.log(JSON.stringify(figures));
    expect(figures.failed).toEqual([]);
    expect(figures.healthSamples).toBeGreaterThanOrEqual(5);
    expect(figures.healthP99Ms).toBeLessThan(HEALTH_P99_MS);
  }, 600_000);
});
