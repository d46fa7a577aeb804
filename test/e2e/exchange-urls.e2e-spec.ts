import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/validate-env.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/simulator.js';
import { type BlackHoleProxy, startBlackHoleProxy } from '../utils/black-hole-proxy.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';
import { until } from '../utils/wait.js';

/**
 * EXCHANGE_URLS reaches every ccxt client of the service: against the simulator the URLs are
 * rewritten with the original host first, so the request line a proxy in front of the simulator
 * sees names the address the service was told to dial.
 */
describe('EXCHANGE_URLS', () => {
  let sim: RunningSimulator;
  let proxy: BlackHoleProxy;
  let app: TestApp;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, host: '127.0.0.1', symbols: ['BTC', 'ETH'], strict: true });
    proxy = await startBlackHoleProxy(sim.url);
    app = await startTestApp({
      ENABLED_WEBSOCKET: '1',
      EXCHANGES: 'okx,gate',
      MARKET_SIMULATOR_URL: proxy.url,
      // okx back on ccxt's port 8443; gate's spot socket on a host the simulator does not serve.
      EXCHANGE_URLS: 'okx.ws=wss://ws.okx.com:8443/ws/v5,gate.spot=wss://moved.example/ws/v4/',
      FUNDING_REFRESH_MS: '0',
      SAMPLE_INTERVAL_MS: '0',
      HISTORY_INTERVAL_MS: '0',
      DEPTH_ENABLED: '0',
    });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await proxy?.close();
    await sim?.close();
  });

  it('dials each overridden URL, and the others as ccxt has them', async () => {
    const lines = (): string[] => proxy.connections.filter((c) => c.websocket).map((c) => c.requestLine.split(' ')[1] ?? '');
    const seen = await until(
      lines,
      (l) => l.filter((p) => p.startsWith('/ws.okx.com:8443/ws/v5/public')).length >= 2 && l.some((p) => p.startsWith('/moved.example/ws/v4/')) && l.some((p) => p.startsWith('/fx-ws.gateio.ws/v4/ws/usdt')),
      20_000,
    );
    expect(seen.filter((p) => p.includes('okx')).every((p) => p.startsWith('/ws.okx.com:8443/'))).toBe(true);
    // The moved gate spot host is refused (the simulator serves no such host); its futures flow.
    const health = async () => ((await (await fetch(`${app.baseUrl}/health/market`)).json()) as { exchanges: Record<string, { connected: boolean }> }).exchanges;
    const h = await until(health, (x) => x.okx?.connected === true, 20_000);
    expect(h.gate?.connected).toBe(false);
  }, 40_000);

  it('a bad entry stops the start, naming the variable and the entry', () => {
    expect(() => loadConfig({ EXCHANGE_URLS: 'okx.ws=https://ws.okx.com/ws/v5' })).toThrow(/EXCHANGE_URLS "okx\.ws" needs a wss:\/\/ or ws:\/\/ URL/);
  });
});
