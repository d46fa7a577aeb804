import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * The embedded database's memory while a recorder writes (rules: embedded-memory). A process of
 * its own (embedded-memory.probe.ts) opens a new folder and writes 100,000 market samples as
 * the sample recorder does; its RSS, peak included, stays under a bound. Measured on 2026-11-27:
 * peak 302 MB with the embedded settings, initdb in a child process and the engine on Liftoff
 * only; 394 MB with V8's optimising tier (its compilations' memory stays in the threads' malloc
 * arenas), 516 MB with PostgreSQL's default buffers, 905 MB with initdb in the same process (its
 * second engine stays resident). Runs on the embedded database only (not in the PostgreSQL pass).
 */
const PEAK_BOUND_MB = 360;
const WRITE_GROWTH_BOUND_MB = 120;

describe('embedded database memory', () => {
  it('a recorder writing 100,000 rows keeps the process under its RSS bound', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', './scripts/ts-loader/register.mjs', 'test/integration/embedded-memory.probe.ts'], {
      env: { ...process.env, LOG_LEVEL: 'error', PROBE_ROWS: '100000' },
      timeout: 120_000,
    });
    const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { rows: number; openedMb: number; afterMb: number; peakMb: number };
    expect(result.rows).toBe(100_000);
    expect(result.peakMb, JSON.stringify(result)).toBeLessThanOrEqual(PEAK_BOUND_MB);
    expect(result.afterMb - result.openedMb, JSON.stringify(result)).toBeLessThanOrEqual(WRITE_GROWTH_BOUND_MB);
  }, 150_000);
});
