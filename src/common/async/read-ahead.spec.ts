import { describe, expect, it } from 'vitest';
import { readAhead } from './read-ahead.js';

describe('readAhead', () => {
  it('leaves a rejection that nobody awaits handled, and still throws for whoever awaits it', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      void readAhead(Promise.reject(new Error('never awaited')));
      const awaited = readAhead(Promise.reject(new Error('awaited')));
      await expect(awaited).rejects.toThrow('awaited');
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
