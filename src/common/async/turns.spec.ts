import { setImmediate as nextImmediate } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { Slicer, SLICE_MS, takeTurn } from './turns.js';

const busy = (ms: number): void => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

/**
 * Three jobs of four 3 ms slices each, and a 1 ms timer chain standing for the loop's other
 * work (its timers phase runs once per turn): how many slices run between two timer ticks.
 */
async function slicesPerTurn(yieldOnce: () => Promise<void>): Promise<number> {
  const log: string[] = [];
  let running = true;
  const tick = (): void => {
    log.push('T');
    if (running) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  await new Promise((r) => setTimeout(r, 5));
  const job = async (name: string): Promise<void> => {
    for (let i = 0; i < 4; i++) {
      await yieldOnce();
      busy(3);
      log.push(name);
    }
  };
  await Promise.all(['A', 'B', 'C'].map(job));
  running = false;
  return Math.max(...log.join('').split('T').map((run) => run.length));
}

describe('takeTurn', () => {
  it('runs one waiting job per turn of the event loop, so the loop polls between slices', async () => {
    expect(await slicesPerTurn(takeTurn)).toBe(1);
  });

  it('is needed: with setImmediate every job waiting runs in the same turn', async () => {
    expect(await slicesPerTurn(() => nextImmediate())).toBe(3);
  });

  it('serves waiters first come first served', async () => {
    const order: number[] = [];
    await Promise.all([1, 2, 3, 4].map((n) => takeTurn().then(() => order.push(n))));
    expect(order).toEqual([1, 2, 3, 4]);
  });
});

describe('Slicer', () => {
  it('takes a turn only once its slice has run SLICE_MS', async () => {
    const slicer = new Slicer();
    let turnPassed = false;
    setImmediate(() => (turnPassed = true));
    await slicer.pace();
    expect(turnPassed).toBe(false);
    busy(SLICE_MS + 1);
    await slicer.pace();
    expect(turnPassed).toBe(true);
  });
});
