import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WindowPacer } from './window-pacer.js';

describe('WindowPacer', () => {
  beforeEach(() => void vi.useFakeTimers({ now: 0 }));
  afterEach(() => void vi.useRealTimers());

  it('okx, 3 per 1,250 ms: three dials at once, the next a full window after the third one finished', async () => {
    const pacer = new WindowPacer(3, 1_250, { now: () => Date.now() });
    const at: number[] = [];
    const dials = Array.from({ length: 4 }, () => pacer.acquire().then((done) => {
      at.push(Date.now());
      // Each dial takes 200 ms to open on a busy machine.
      setTimeout(done, 200);
    }));
    await vi.advanceTimersByTimeAsync(5_000);
    await Promise.all(dials);
    // The venue saw the first three no later than 200 ms: the 4th leaves 1,250 ms after that.
    expect(at).toEqual([0, 0, 0, 1_450]);
  });

  it('a dial still in flight holds its slot; waiters are served in order', async () => {
    const pacer = new WindowPacer(1, 100, { now: () => Date.now() });
    const order: string[] = [];
    let finishA: () => void = () => undefined;
    void pacer.acquire().then((done) => {
      order.push('a');
      finishA = done;
    });
    void pacer.acquire().then((done) => {
      order.push('b');
      done();
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(order).toEqual(['a']);
    finishA();
    await vi.advanceTimersByTimeAsync(99);
    expect(order).toEqual(['a']);
    await vi.advanceTimersByTimeAsync(20);
    expect(order).toEqual(['a', 'b']);
  });
});
