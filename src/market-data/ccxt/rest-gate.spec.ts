import { describe, expect, it } from 'vitest';
import { RestGate, RestPausedError, retryAfterMs } from './rest-gate.js';

const rateLimited = (): Error => Object.assign(new Error('binance {"code":-1003}'), { name: 'RateLimitExceeded' });

describe('RestGate', () => {
  it('after a 429 with Retry-After 30, refuses calls at once for 30 s without calling the venue, then calls again', async () => {
    let now = 0;
    const gate = new RestGate('binance', { now: () => now }, { baseMs: 1_000, maxMs: 60_000 }, () => 0.5);
    const client = { last_response_headers: { 'Retry-After': '30' } };
    await expect(gate.run(client, () => Promise.reject(rateLimited()))).rejects.toThrow('-1003');
    let calls = 0;
    const call = (): Promise<string> => {
      calls++;
      return Promise.resolve('ok');
    };
    now = 29_999;
    await expect(gate.run(client, call)).rejects.toBeInstanceOf(RestPausedError);
    expect(calls).toBe(0);
    now = 30_000;
    await expect(gate.run(client, call)).resolves.toBe('ok');
    expect(calls).toBe(1);
  });

  it('without Retry-After backs off exponentially per consecutive 429/418 (750, 1,500 ms with jitter 0.5), reset by a success', async () => {
    let now = 0;
    const gate = new RestGate('okx', { now: () => now }, { baseMs: 1_000, maxMs: 60_000 }, () => 0.5);
    const client = { last_response_headers: {} };
    const ddos = Object.assign(new Error('418'), { name: 'DDoSProtection' });
    await expect(gate.run(client, () => Promise.reject(ddos))).rejects.toThrow('418');
    now = 749;
    await expect(gate.run(client, () => Promise.resolve(1))).rejects.toBeInstanceOf(RestPausedError);
    now = 750;
    await expect(gate.run(client, () => Promise.reject(ddos))).rejects.toThrow('418');
    now = 750 + 1_499;
    await expect(gate.run(client, () => Promise.resolve(1))).rejects.toThrow('REST paused for 1 s');
    now = 750 + 1_500;
    await expect(gate.run(client, () => Promise.resolve(1))).resolves.toBe(1);
    await expect(gate.run(client, () => Promise.reject(ddos))).rejects.toThrow('418');
    now += 749;
    await expect(gate.run(client, () => Promise.resolve(1))).rejects.toBeInstanceOf(RestPausedError);
  });

  it('other errors pass through and pause nothing', async () => {
    const gate = new RestGate('gate', { now: () => 0 }, { baseMs: 1_000, maxMs: 60_000 });
    await expect(gate.run({ last_response_headers: {} }, () => Promise.reject(new Error('ExchangeNotAvailable')))).rejects.toThrow('ExchangeNotAvailable');
    await expect(gate.run({ last_response_headers: {} }, () => Promise.resolve(2))).resolves.toBe(2);
  });

  it('reads Retry-After as seconds or an HTTP date, in any header case', () => {
    expect(retryAfterMs({ 'Retry-After': '120' })).toBe(120_000);
    expect(retryAfterMs({ 'retry-after': 2 })).toBe(2_000);
    expect(retryAfterMs({ 'Retry-After': 'Wed, 25 Nov 2026 10:00:30 GMT' }, Date.parse('2026-11-25T10:00:00Z'))).toBe(30_000);
    expect(retryAfterMs({ 'Retry-After': 'soon' })).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});
