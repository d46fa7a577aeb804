import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FuzzOracle, send } from '../fuzz/fuzz-oracle.js';
import { type FuzzOperation, type FuzzSizes, requestArbitrary } from '../fuzz/fuzz-requests.js';
import type { FuzzPools, OpenApiSchema } from '../fuzz/schema-arbitraries.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';

/**
 * A property-based fuzz of every operation in the committed
 * openapi.json (a new operation is covered with no new code). For each one, fast-check draws
 * requests from the document alone: valid and mutated bodies, query strings and path ids,
 * hostile strings (lone surrogates, NUL, huge), edge numbers, missing and extra members, deep
 * nesting, wrong content types. Every answer must be a documented status, errors in the `errors` rule
 * shape without echoed input, 2xx bodies of their documented schema; streams answer their
 * head and are closed. /health answers 200 afterwards.
 *
 * CI: a fixed seed and FUZZ_RUNS (default 25) requests per operation. `npm run fuzz` runs the
 * same suite with a larger budget; FUZZ_SEED picks another seed (printed on failure).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const SEED = Number(process.env.FUZZ_SEED ?? 18);
const SIZES: FuzzSizes = { hugeInUrl: 1_500, hugeInBody: Number(process.env.FUZZ_HUGE_BODY ?? 600_000) };
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

interface Document {
  paths: Record<string, Record<string, Omit<FuzzOperation, 'method' | 'path'>>>;
  components: { schemas: Record<string, OpenApiSchema> };
}

const doc = JSON.parse(await readFile(new URL('../../openapi.json', import.meta.url), 'utf8')) as Document;
const operations: FuzzOperation[] = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => METHODS.includes(method))
    .map(([method, op]) => ({ ...op, method, path })),
);

/** One seed per operation, stable across runs and independent of the other operations. */
const seedOf = (id: string): number => [...id].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, SEED);

/** A request as a failure report shows it: runs of one character and long texts cut short. */
const shorten = (text: string): string =>
  text.replace(/(.{1,6}?)\1{8,}/gs, (run: string, unit: string) => `${unit}…(${run.length / unit.length}×)`).slice(0, 600);

const statuses = new Map<string, Record<number, number>>();
/** Statuses seen per operation: FUZZ_VERBOSE=1 prints them, to see how much of the API a budget reaches. */
function tally(route: string, status: number): void {
  const seen = statuses.get(route) ?? {};
  seen[status] = (seen[status] ?? 0) + 1;
  statuses.set(route, seen);
}

/** Every `id` member of a 2xx JSON answer, so later requests can address what earlier ones made. */
function collectIds(value: unknown, into: string[]): void {
  if (Array.isArray(value)) value.forEach((v) => collectIds(v, into));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, member] of Object.entries(value)) {
      if (key === 'id' && typeof member === 'string' && !into.includes(member)) into.push(member);
      else collectIds(member, into);
    }
  }
}

describe(`API fuzz: ${operations.length} operations of openapi.json, ${RUNS} generated requests each, seed ${SEED}`, () => {
  let t: TestApp;
  const pools: FuzzPools = { emails: ['fuzz@example.com', 'other.fuzz@example.com'], ids: [] };
  const oracle = new FuzzOracle(doc.components.schemas);

  beforeAll(async () => {
    t = await startTestApp({
      ARBITRAGE_RATE_LIMIT: '1000000',
      SAMPLE_INTERVAL_MS: '0',
      HISTORY_INTERVAL_MS: '0',
      CROSSING_JOB_ENABLED: '0',
      SSE_MAX_PER_IP: '1000',
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(operations.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))('%s', async (_, op) => {
    await fc.assert(
      fc.asyncProperty(requestArbitrary(op, doc.components.schemas, pools, SIZES), async (req) => {
        const res = await send(t.baseUrl, req);
        tally(`${op.method.toUpperCase()} ${op.path}`, res.status);
        if (res.status < 300 && res.contentType.startsWith('application/json')) collectIds(JSON.parse(res.body), pools.ids);
        const problems = oracle.problems(op, res);
        if (problems.length > 0) throw new Error(`${problems.join('; ')}\n  for ${shorten(`${req.method} ${req.url} (${req.contentType ?? 'no content type'}) ${req.body ?? ''}`)}`);
      }),
      { seed: seedOf(op.operationId ?? op.path), numRuns: RUNS, endOnFailure: RUNS <= 100 },
    );
  }, 60_000 + RUNS * 2_000);

  it('/health answers 200 after the run', async () => {
    if (process.env.FUZZ_VERBOSE) console.log(JSON.stringify(Object.fromEntries(statuses), null, 1));
    const res = await send(t.baseUrl, { method: 'GET', url: '/health' });
    expect(res.status).toBe(200);
  });
});
