import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../src/simulator/simulator.js';
import { collectErrors, launchChromium, screenshot } from '../utils/browser.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';
import { until } from '../utils/wait.js';

/** 302 bases, spot and perpetual on five exchanges: the 3,020 markets of the default universe. */
const BASES = Array.from({ length: 302 }, (_, i) => `PX${String(i).padStart(3, '0')}`);
const MARKETS = BASES.length * 10;
const LONG_TASK_LIMIT_MS = 100;

interface MarketHealth { exchanges: Record<string, { connected: boolean; markets: number }> }

/**
 * The prices page with every market of the default universe while the simulator's load mode
 * changes each of them about once a second: all 3,020 rows are there (virtualised), and over
 * ten 1 Hz snapshots the page has no long task over 100 ms.
 */
describe('dashboard prices page at 3,020 markets in Chromium', () => {
  let sim: RunningSimulator;
  let app: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    [sim, browser] = await Promise.all([startSimulator({ port: 0, host: '127.0.0.1', symbols: BASES, walk: false }), launchChromium()]);
    app = await startTestApp({
      ENABLED_WEBSOCKET: '1',
      MARKET_SIMULATOR_URL: sim.url,
      MAX_SYMBOLS: String(BASES.length),
      FUNDING_REFRESH_MS: '0',
      SAMPLE_INTERVAL_MS: '0',
      HISTORY_INTERVAL_MS: '0',
    });
    const health = async (): Promise<MarketHealth> => (await (await fetch(`${app.baseUrl}/health/market`)).json()) as MarketHealth;
    await until(health, (h) => Object.values(h.exchanges).reduce((n, x) => n + (x.connected ? x.markets : 0), 0) === MARKETS, 150_000, 250);
  }, 200_000);

  afterAll(async () => {
    await fetch(`${sim?.url}/_sim/load`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"rate":0}' }).catch(() => undefined);
    await browser?.close();
    await app?.close();
    await sim?.close();
  });

  it('renders every market, virtualised, with no long task over 100 ms across ten 1 Hz snapshots under load', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors = collectErrors(page);
    await page.goto(`${app.baseUrl}/#/prices`);
    await expect.poll(() => page.getByTestId('price-count').innerText(), { timeout: 20_000 }).toBe(`${MARKETS} of ${MARKETS} markets`);
    const res = await fetch(`${sim.url}/_sim/load`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rate: MARKETS }) });
    expect(res.ok).toBe(true);
    await page.evaluate(`(() => {
      window.longTasks = [];
      new PerformanceObserver((list) => { for (const e of list.getEntries()) window.longTasks.push(e.duration); }).observe({ type: 'longtask' });
    })()`);
    const rendered = async (): Promise<number> => Number(await page.locator('section[data-frames]').getAttribute('data-frames'));
    const first = await rendered();
    // The n-th snapshot the page has rendered.
    const frames = (n: number) => until(rendered, (seen) => seen >= n, 20_000);
    await frames(first + 5);
    await page.getByTestId('virtual-scroll').evaluate((el) => el.scrollTo(0, el.scrollHeight / 2));
    await frames(first + 10);
    const longTasks: number[] = await page.evaluate('window.longTasks');
    expect(longTasks.filter((d) => d > LONG_TASK_LIMIT_MS), `long tasks: ${JSON.stringify(longTasks)}`).toEqual([]);
    expect(await page.getByTestId('price-row').count()).toBeLessThan(100);
    await page.getByTestId('virtual-scroll').evaluate((el) => el.scrollTo(0, 0));
    await screenshot(page, 'prices', true);
    await page.locator('input[name="q"]').fill('PX301');
    await expect.poll(() => page.getByTestId('price-row').count()).toBe(10);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
