import { describe, expect, it } from 'vitest';
import { type FetchingClient, RestGate, RestPausedError, retryAfterMs } from './rest-gate.js';

const rateLimited = (): Error => Object.assign(new Error('binance {"code":-1003}'), { name: 'RateLimitExceeded' });

/** A ccxt-like client whose next fetch answers what the test says, recording what was sent. */
class FakeClient implements FetchingClient {
  sent: string[] = [];
  last_response_headers: unknown = {};
  next: (() => Promise<unknown>) | null = null;

  fetch(url: string): Promise<unknown> {
    this.sent.push(url);
    const answer = this.next ?? (() => Promise.resolve('ok'));
    this.next = null;
    return answer();
  }
}

describe('RestGate', () => {
  it('after a 429 with Retry-After 30, stops every call before it is sent for 30 s, then lets them through', async () => {
    let now = 0;
    const client = new RestGate('binance', { now: () => now }, { baseMs: 1_000, maxMs: 60_000 }, () => 0.5).attach(new FakeClient());
    client.next = () => {
      client.last_response_headers = { 'Retry-After': '30' };
      return Promise.reject(rateLimited());
    };
    await expect(client.fetch('/a')).rejects.toThrow('-1003');
    now = 29_999;
    await expect(client.fetch('/b')).rejects.toBeInstanceOf(RestPausedError);
    expect(client.sent).toEqual(['/a']);
    now = 30_000;
    await expect(client.fetch('/c')).resolves.toBe('ok');
    expect(client.sent).toEqual(['/a', '/c']);
  });

  it('without Retry-After backs off exponentially per consecutive 429/418 (750, 1,500 ms with jitter 0.5), reset by a success', async () => {
    let now = 0;
    const client = new RestGate('okx', { now: () => now }, { baseMs: 1_000, maxMs: 60_000 }, () => 0.5).attach(new FakeClient());
    const ddos = (): Promise<never> => Promise.reject(Object.assign(new Error('418'), { name: 'DDoSProtection' }));
    client.next = ddos;
    await expect(client.fetch('/1')).rejects.toThrow('418');
    now = 749;
    await expect(client.fetch('/2')).rejects.toBeInstanceOf(RestPausedError);
    now = 750;
    client.next = ddos;
    await expect(client.fetch('/3')).rejects.toThrow('418');
    now = 750 + 1_499;
    await expect(client.fetch('/4')).rejects.toThrow('REST paused for 1 s');
    now = 750 + 1_500;
    await expect(client.fetch('/5')).resolves.toBe('ok');
    client.next = ddos;
    await expect(client.fetch('/6')).rejects.toThrow('418');
    now += 749;
    await expect(client.fetch('/7')).rejects.toBeInstanceOf(RestPausedError);
    expect(client.sent).toEqual(['/1', '/3', '/5', '/6']);
  });

  it('other errors pass through and pause nothing; one gate guards every client it is attached to', async () => {
    const gate = new RestGate('gate', { now: () => 0 }, { baseMs: 1_000, maxMs: 60_000 });
    const a = gate.attach(new FakeClient());
    const b = gate.attach(new FakeClient());
    a.next = () => Promise.reject(new Error('ExchangeNotAvailable'));
    await expect(a.fetch('/x')).rejects.toThrow('ExchangeNotAvailable');
    await expect(b.fetch('/y')).resolves.toBe('ok');
    a.next = () => Promise.reject(rateLimited());
    await expect(a.fetch('/z')).rejects.toThrow('-1003');
    await expect(b.fetch('/w')).rejects.toBeInstanceOf(RestPausedError);
  });

  it('reads Retry-After as seconds or an HTTP date, in any header case', () => {
    expect(retryAfterMs({ 'Retry-After': '120' })).toBe(120_000);
    expect(retryAfterMs({ 'retry-after': 2 })).toBe(2_000);
    expect(retryAfterMs({ 'Retry-After': 'Wed, 25 Nov 2026 10:00:30 GMT' }, Date.parse('2026-11-25T10:00:00Z'))).toBe(30_000);
    expect(retryAfterMs({ 'Retry-After': 'soon' })).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});
