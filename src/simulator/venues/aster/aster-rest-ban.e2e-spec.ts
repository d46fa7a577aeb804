import type { Exchange } from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExchangeClient } from '../../../market-data/ccxt/exchange-clients.js';
import { RestGate, RestPausedError } from '../../../market-data/ccxt/rest-gate.js';
import { systemClock } from '../../../market-data/clock.js';
import { venueOf } from '../../../venues/registry.js';
import { startSimulator, type RunningSimulator } from '../../../simulator/simulator.js';
import { until } from '../../../../test/utils/wait.js';

/**
 * aster's REST limit answers through the REAL ccxt client against the strict simulator: a call
 * over the weight limit gets 429 `-1003` with Retry-After, a call made during it a 418 ban of
 * 2 minutes; the service's REST gate pauses the venue for the Retry-After (at least its minute
 * window) after the 429 and at least 2 minutes after the 418, and makes no call while paused.
 */
const BACKOFF = { baseMs: 100, maxMs: 1000 };

describe('aster REST limit: 429, then 418, and the REST gate pausing', () => {
  let sim: RunningSimulator;
  let raw: Exchange;
  const clients: Exchange[] = [];
  const rule = venueOf('aster').restBan;

  const control = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${sim.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    expect(res.status, path).toBe(200);
    return res.json();
  };
  const restCalls = async (): Promise<number> => ((await control('GET', '/_sim/rest-calls')) as Record<string, number[]>).aster?.length ?? 0;
  const client = (): Exchange => {
    const c = createExchangeClient('aster', { simulatorUrl: sim.url });
    clients.push(c);
    return c;
  };
  const failure = (p: Promise<unknown>): Promise<Error> => p.then(() => new Error('resolved'), (err: unknown) => (err instanceof Error ? err : new Error(String(err))));

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, symbols: ['BTC', 'ETH'], walk: false, strict: true });
    raw = client();
    await raw.loadMarkets();
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await sim?.close();
  });

  it('a 429 with Retry-After pauses the gate for the rest of the window; the paused gate calls nothing', async () => {
    const gate = new RestGate('aster', systemClock, BACKOFF);
    const gated = gate.attach(client());
    gated.setMarketsFromExchange(raw);
    await control('POST', '/_sim/rest-limit', { exchange: 'aster' });
    const before = Date.now();
    const err = await failure(gated.fetchFundingRates());
    expect(err.name).toBe('RateLimitExceeded');
    expect(err.message).toContain('-1003');
    expect(gated.last_response_headers).toMatchObject({ 'Retry-After': expect.stringMatching(/^\d+$/) as unknown });
    expect(gate.bannedUntil - before).toBeGreaterThanOrEqual(rule.minPauseMs - 1_000);
    const calls = await restCalls();
    expect(await failure(gated.fetchFundingRates())).toBeInstanceOf(RestPausedError);
    expect(await restCalls()).toBe(calls);
  });

  it('a call made during the Retry-After is banned with 418; the gate then pauses at least 2 minutes', async () => {
    // Calls within the simulator's in-flight grace still get the 429; the first after it, the ban.
    const err = await until(() => failure(raw.fetchFundingRates()), (e) => /banned until/.test(e.message), 5_000, 50);
    expect(err.message).toContain('-1003');
    const gate = new RestGate('aster', systemClock, BACKOFF);
    const gated = gate.attach(client());
    gated.setMarketsFromExchange(raw);
    const before = Date.now();
    const banned = await failure(gated.fetchFundingRates());
    expect(banned.message).toMatch(/418|banned until/);
    expect(gate.bannedUntil - before).toBeGreaterThanOrEqual(rule.banMinMs ?? 0);
    const violations = (await control('GET', '/_sim/violations')) as { byExchange: Record<string, Record<string, number>> };
    expect(violations.byExchange.aster?.['rest-ignored-retry-after'] ?? 0).toBeGreaterThan(0);
  });
});
