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

  it('a venue rule below the backoff: the backoff grows per consecutive 429 (3, 6 s with base 4 s, jitter 0.5), reset by a success', async () => {
    let now = 0;
    const client = new RestGate('okx', { now: () => now }, { baseMs: 4_000, maxMs: 60_000 }, () => 0.5).attach(new FakeClient());
    const tooMany = (): Promise<never> => Promise.reject(Object.assign(new Error('okx 429 {"code":"50011"}'), { name: 'RateLimitExceeded' }));
    client.next = tooMany;
    await expect(client.fetch('/1')).rejects.toThrow('50011');
    now = 2_999;
    await expect(client.fetch('/2')).rejects.toBeInstanceOf(RestPausedError);
    now = 3_000;
    client.next = tooMany;
    await expect(client.fetch('/3')).rejects.toThrow('50011');
    now = 3_000 + 5_999;
    await expect(client.fetch('/4')).rejects.toThrow('REST paused for 1 s');
    now = 3_000 + 6_000;
    await expect(client.fetch('/5')).resolves.toBe('ok');
    client.next = tooMany;
    await expect(client.fetch('/6')).rejects.toThrow('50011');
    now += 2_999;
    await expect(client.fetch('/7')).rejects.toBeInstanceOf(RestPausedError);
    expect(client.sent).toEqual(['/1', '/3', '/5', '/6']);
  });

  describe('each venue\'s ban as the venue states it (backoff 100 ms, so the rule decides)', () => {
    const cases = [
      // [venue, the error ccxt raises, Retry-After sent, no call for this long]
      ['binance', 'RateLimitExceeded', 'binance 429 {"code":-1003}', '30', 30_000],
      // ccxt 4.5.84 raises binance's 429 as DDoSProtection too (binance.js handleErrors): not a ban.
      ['binance', 'DDoSProtection', 'binance 429 Too Many Requests {"code":-1003,"msg":"Too many requests; retry after 30 s"}', '30', 30_000],
      ['binance', 'DDoSProtection', 'binance 418 {"code":-1003,"msg":"Way too many requests; IP banned until 1"}', undefined, 120_000],
      ['binance', 'DDoSProtection', 'binance 418 banned', '240', 240_000],
      ['bybit', 'RateLimitExceeded', 'bybit 403 access too frequent', '5', 600_000],
      ['okx', 'RateLimitExceeded', 'okx 429 {"code":"50011"}', '60', 2_000],
      ['gate', 'RateLimitExceeded', 'gate 429 TOO_MANY_REQUESTS', undefined, 10_000],
      ['bitget', 'RateLimitExceeded', 'bitget 429 {"code":"429"}', undefined, 1_000],
    ] as const;
    it.each(cases)('%s after %s (%s, Retry-After %s): no call for %i ms, then calls again; one ban reported', async (exchange, name, message, retryAfter, banMs) => {
      let now = 0;
      const bans: { exchange: string; untilMs: number; reason: string }[] = [];
      const gate = new RestGate(exchange, { now: () => now }, { baseMs: 100, maxMs: 100 }, () => 0.5, (ban) => bans.push(ban));
      const client = gate.attach(new FakeClient());
      client.next = () => {
        client.last_response_headers = retryAfter === undefined ? {} : { 'Retry-After': retryAfter };
        return Promise.reject(Object.assign(new Error(message), { name }));
      };
      await expect(client.fetch('/limited')).rejects.toThrow(message);
      expect(gate.bannedUntil).toBe(banMs);
      expect(bans).toEqual([{ exchange, untilMs: banMs, reason: message }]);
      now = banMs - 1;
      await expect(client.fetch('/early')).rejects.toBeInstanceOf(RestPausedError);
      now = banMs;
      await expect(client.fetch('/after')).resolves.toBe('ok');
      expect(client.sent).toEqual(['/limited', '/after']);
      expect(bans).toHaveLength(1);
    });
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
