import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Server } from 'node:http';
import type { LoggerService } from '@nestjs/common';
import { exitGracefullyOnSignals } from './graceful-shutdown.js';

function harness(closeTakesMs: number | 'never', fails = false) {
  const handlers = new Map<string, () => void>();
  const server = { close: vi.fn(), closeIdleConnections: vi.fn() };
  const exits: number[] = [];
  const logs: unknown[] = [];
  const logger = { log: (m: unknown) => logs.push(m), error: (m: unknown) => logs.push(m), warn: vi.fn() } as LoggerService;
  const close = vi.fn(() =>
    closeTakesMs === 'never'
      ? new Promise<void>(() => undefined)
      : new Promise<void>((resolve, reject) => setTimeout(() => (fails ? reject(new Error('db gone')) : resolve()), closeTakesMs)),
  );
  exitGracefullyOnSignals(
    { getHttpServer: () => server as unknown as Server, close },
    { deadlineMs: 10_000, logger, exit: (code) => exits.push(code), on: (signal, handler) => handlers.set(signal, handler) },
  );
  return { handlers, server, close, exits, logs };
}

describe('exitGracefullyOnSignals (shutdown has a deadline)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('stops accepting at once, closes the app and exits 0 when the work ends in time', async () => {
    const h = harness(3_000);
    h.handlers.get('SIGTERM')?.();
    expect(h.server.close).toHaveBeenCalledOnce();
    expect(h.server.closeIdleConnections).toHaveBeenCalledOnce();
    expect(h.close).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(2_999);
    expect(h.exits).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.exits).toEqual([0]);
    // The deadline was cleared: nothing exits a second time.
    await vi.advanceTimersByTimeAsync(20_000);
    expect(h.exits).toEqual([0]);
  });

  it('keeps closing connections that become idle while in-flight requests finish, and stops once closed', async () => {
    const h = harness(1_000);
    h.handlers.get('SIGTERM')?.();
    await vi.advanceTimersByTimeAsync(500);
    // A keep-alive connection answered after the signal must not hold the server for its timeout.
    expect(h.server.closeIdleConnections.mock.calls.length).toBeGreaterThanOrEqual(5);
    await vi.advanceTimersByTimeAsync(500);
    const calls = h.server.closeIdleConnections.mock.calls.length;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(h.server.closeIdleConnections.mock.calls.length).toBe(calls);
  });

  it('exits 1 at the deadline when the work does not end, and says so', async () => {
    const h = harness('never');
    h.handlers.get('SIGINT')?.();
    await vi.advanceTimersByTimeAsync(9_999);
    expect(h.exits).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.exits).toEqual([1]);
    expect(h.logs).toContainEqual({ msg: 'shutdown deadline passed; exiting with work unfinished', deadlineMs: 10_000 });
  });

  it('a second signal neither restarts the shutdown nor moves the deadline', async () => {
    const h = harness('never');
    h.handlers.get('SIGTERM')?.();
    await vi.advanceTimersByTimeAsync(6_000);
    h.handlers.get('SIGINT')?.();
    expect(h.close).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(4_000);
    expect(h.exits).toEqual([1]);
  });

  it('a close that fails exits 1 with the error logged', async () => {
    const h = harness(10, true);
    h.handlers.get('SIGTERM')?.();
    await vi.advanceTimersByTimeAsync(10);
    expect(h.exits).toEqual([1]);
    expect(h.logs).toContainEqual(expect.objectContaining({ msg: 'shutdown failed' }));
  });
});
