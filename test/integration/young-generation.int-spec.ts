import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SERVICE_NODE_FLAGS } from '../../src/common/memory/heap-growth.js';

/**
 * The serving thread's young generation is set by a start-up flag; the ingest workers keep their
 * own (rules: embedded-memory). Measured in a process of its own (young-generation.probe.ts), the
 * service's entry steps included. With the flags the serving thread's new space stays at two
 * 4 MB semi-spaces while the worker's grows to WORKER_YOUNG_GENERATION_MB's; without the
 * `--max-semi-space-size=0` of limitHeapGrowth() the worker would be held to 4 MB as well, and
 * without the flags the serving thread grows to V8's 16 MB semi-spaces.
 */
async function newSpaces(flags: readonly string[]): Promise<{ servingMb: number; workerMb: number }> {
  const { stdout } = await promisify(execFile)(process.execPath, [...flags, '--import', './scripts/ts-loader/register.mjs', 'test/integration/young-generation.probe.ts'], {
    env: { ...process.env, NODE_OPTIONS: '' },
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { servingMb: number; workerMb: number };
}

describe('young generations: the serving thread small, the ingest workers their own', () => {
  it('with the service flags the serving thread stays under 10 MB of new space and the worker grows past 30', async () => {
    const [flagged, plain] = await Promise.all([newSpaces(SERVICE_NODE_FLAGS), newSpaces([])]);
    expect(flagged.servingMb, JSON.stringify({ flagged, plain })).toBeLessThan(10);
    expect(flagged.workerMb, JSON.stringify({ flagged, plain })).toBeGreaterThan(30);
    expect(plain.servingMb, JSON.stringify({ flagged, plain })).toBeGreaterThan(30);
  }, 90_000);

  it('npm start, start:prod and the Docker image start the service with those flags', () => {
    const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
    const nodeOptions = /^ENV NODE_OPTIONS=(.*)$/m.exec(readFileSync('Dockerfile', 'utf8'))?.[1] ?? '';
    expect(scripts.start).toContain(`node ${SERVICE_NODE_FLAGS.join(' ')} dist/main.js`);
    expect(scripts['start:prod']).toBe(`node ${SERVICE_NODE_FLAGS.join(' ')} dist/main.js`);
    expect(nodeOptions.replace(/^"|"$/g, '').split(' ')).toEqual(expect.arrayContaining([...SERVICE_NODE_FLAGS]));
  });
});
