import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SERVICE_NODE_FLAGS } from '../../src/common/memory/heap-growth.js';

/**
 * The service limits how far V8 grows a heap past its live size (rules: embedded-memory). The
 * same allocation pattern (a live set, and batches promoted then dropped) runs in two processes
 * of its own, with and without `limitHeapGrowth()`; the limited one commits far less heap. On
 * 2026-11-28 at 30 %: 213 MB against 547 (245 at 50 %, the limit before). If the flag stopped
 * being honoured (V8 ignores unknown flags set at run time), both would commit the same. Both
 * processes start with the service's node flags: without them Node 24's V8 sizes the young
 * generation from the machine's memory and adds it to the old generation's limit (366 MB
 * against 617 on a 24 GB machine, 2026-12-02; 163 against 465 with the flags).
 */
async function peakCommittedMb(limit: boolean): Promise<number> {
  const { stdout } = await promisify(execFile)(process.execPath, [...SERVICE_NODE_FLAGS, '--import', './scripts/ts-loader/register.mjs', 'test/integration/heap-growth.probe.ts'], {
    env: { ...process.env, NODE_OPTIONS: '', PROBE_LIMIT: limit ? '1' : '0' },
    timeout: 60_000,
  });
  return (JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { peakCommittedMb: number }).peakCommittedMb;
}

describe('heap growth', () => {
  it('with the limit, a heap that promotes and drops garbage commits at most 60 % of what V8 commits by default', async () => {
    const [limited, unlimited] = await Promise.all([peakCommittedMb(true), peakCommittedMb(false)]);
    expect(limited, `limited ${limited} MB, V8's default ${unlimited} MB`).toBeLessThanOrEqual(0.6 * unlimited);
  }, 90_000);
});
