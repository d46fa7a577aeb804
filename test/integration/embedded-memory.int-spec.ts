import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SERVICE_NODE_FLAGS } from '../../src/common/memory/heap-growth.js';

/**
 * The embedded database's memory while a recorder writes (rules: embedded-memory). A process of
 * its own (embedded-memory.probe.ts), started as the service is (SERVICE_NODE_FLAGS, then
 * limitHeapGrowth()), opens a new folder and writes 100,000 market samples as the sample
 * recorder does; its RSS, peak included, stays under a bound. Measured on 2026-11-27 (Node 20,
 * without the service's flags): peak 302 MB with the embedded settings, initdb in a child
 * process and the engine on Liftoff only; 394 MB with V8's optimising tier (its compilations'
 * memory stays in the threads' malloc arenas), 516 MB with PostgreSQL's default buffers, 905 MB
 * with initdb in the same process (its second engine stays resident). With the service's flags
 * (2026-12-02): peak 259-276 MB on Liftoff on Node 20 and 24; with the optimising tier 333 MB on
 * Node 20 and 870 MB on Node 24. Without the flags Node 24's V8 sizes the young generation
 * from the machine's memory (128 MB of new space on a 24 GB machine), which would swamp what
 * this measures. Runs on the embedded database only (not in the PostgreSQL pass).
 */
const PEAK_BOUND_MB = 310;
const WRITE_GROWTH_BOUND_MB = 120;

describe('embedded database memory', () => {
  it('a recorder writing 100,000 rows keeps the process under its RSS bound', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [...SERVICE_NODE_FLAGS, '--import', './scripts/ts-loader/register.mjs', 'test/integration/embedded-memory.probe.ts'], {
      env: { ...process.env, NODE_OPTIONS: '', LOG_LEVEL: 'error', PROBE_ROWS: '100000' },
      timeout: 120_000,
    });
    const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { rows: number; openedMb: number; afterMb: number; peakMb: number };
    expect(result.rows).toBe(100_000);
    expect(result.peakMb, JSON.stringify(result)).toBeLessThanOrEqual(PEAK_BOUND_MB);
    expect(result.afterMb - result.openedMb, JSON.stringify(result)).toBeLessThanOrEqual(WRITE_GROWTH_BOUND_MB);
  }, 150_000);
});
