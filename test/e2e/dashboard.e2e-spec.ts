import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertEvaluatorService } from '../../src/alerts/alert-evaluator.service.js';
import { collectErrors, launchChromium, screenshot } from '../utils/browser.js';
import { type MarketFixture, startMarketFixture } from '../utils/market-fixture.js';

const OWNER_KEY = 'arbitrage-monitor.owner-email';
const HEADER =
  'id,status,strategy,asset,buy_exchange,sell_exchange,quantity,short_quantity,entry_buy_price,entry_sell_price,' +
  'exit_buy_price,exit_sell_price,trading_fees,withdrawal_fees,funding,fees_estimated,gross_pnl,net_pnl,net_pnl_pct,' +
  'opened_at,closed_at,source,external_id,notes';
const daysAgo = (n: number): string => new Date(Date.now() - n * 86_400_000).toISOString();
const SERVICE_VERSION = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;

/**
 * The dashboard in Debian's Chromium against the whole service and the exchange simulator: one
 * browser and one browser session for the file. Screenshots go to test-results/dashboard/.
 */
describe('dashboard in Chromium', () => {
  let m: MarketFixture;
  let browser: Browser;
  let context: BrowserContext;
  let base: string;
  const outside: string[] = [];

  beforeAll(async () => {
    [m, browser] = await Promise.all([
      startMarketFixture(['binance', 'okx', 'bybit'], ['BTC-USDT', 'ETH-USDT', 'SOL-USDT'], { HISTORY_INTERVAL_MS: '1000', ALERT_TARGETS_ALLOW_PRIVATE: '1' }),
      launchChromium(),
    ]);
    base = m.app.baseUrl;
    await m.waitConnected();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    // The dashboard works offline: every request of every page goes to the service itself.
    context.on('request', (r) => {
      const url = r.url();
      if (!url.startsWith(`${base}/`) && !url.startsWith('data:') && !url.startsWith('blob:')) outside.push(url);
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await m?.close();
  });

  const open = async (hash: string): Promise<{ page: Page; errors: string[] }> => {
    const page = await context.newPage();
    const errors = collectErrors(page);
    await page.goto(`${base}/#/${hash}`);
    return { page, errors };
  };

  it('the opportunities table shows a row within 3 s of a quote change that opens a spread; pause holds new rows; a filter hides it and is kept in the URL', async () => {
    const { page, errors } = await open('opportunities');
    await page.getByTestId('stream-state').getByText('open').waitFor({ timeout: 10_000 });
    const started = Date.now();
    await m.putQuotes([
      { exchange: 'binance', market: 'SPOT', ticker: 'SOL-USDT', bid: 149.9, ask: 150 },
      { exchange: 'bybit', market: 'SPOT', ticker: 'SOL-USDT', bid: 149.9, ask: 150 },
      { exchange: 'okx', market: 'SPOT', ticker: 'SOL-USDT', bid: 151, ask: 151.1 },
    ]);
    const row = page.locator('tr[data-ticker="SOL-USDT"]', { hasText: 'binance → okx' });
    await row.first().waitFor({ timeout: 3000 });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await row.first().getAttribute('class')).toBe('fresh');
    await screenshot(page, 'opportunities', true);
    // Paused: a new opportunity is held, not shown, until resumed.
    await page.getByTestId('pause').click();
    await m.putQuotes([
      { exchange: 'binance', market: 'SPOT', ticker: 'BTC-USDT', bid: 59_999, ask: 60_000 },
      { exchange: 'bybit', market: 'SPOT', ticker: 'BTC-USDT', bid: 59_999, ask: 60_000 },
      { exchange: 'okx', market: 'SPOT', ticker: 'BTC-USDT', bid: 60_300, ask: 60_301 },
    ]);
    await expect.poll(() => page.getByTestId('pause').innerText()).toMatch(/^Resume \([1-9]\d* held\)$/);
    expect(await page.locator('tr[data-ticker="BTC-USDT"]').count()).toBe(0);
    await page.getByTestId('pause').click();
    await page.locator('tr[data-ticker="BTC-USDT"]').first().waitFor({ timeout: 1000 });
    await page.locator('input[name="minProfit"]').fill('1');
    await page.locator('input[name="minProfit"]').press('Tab');
    await page.waitForURL(/minProfit=1/, { timeout: 5000 });
    await row.first().waitFor({ state: 'detached', timeout: 5000 });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a lost stream shows a banner, reconnects by itself and shows the Last-Event-ID it resumed from', async () => {
    const { page, errors } = await open('opportunities');
    await m.putQuotes([{ exchange: 'bybit', market: 'SPOT', ticker: 'ETH-USDT', bid: 5000, ask: 5000.5 }]);
    await page.locator('tr[data-ticker="ETH-USDT"]').first().waitFor({ timeout: 5000 });
    // The service drops every open connection, as a restart or a proxy would.
    m.app.app.getHttpServer().closeAllConnections();
    await page.getByTestId('stream-banner').waitFor({ timeout: 5000 });
    await page.getByTestId('resumed').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('resumed').innerText()).toMatch(/resumed after event #\d+/);
    await screenshot(page, 'opportunities-reconnected');
    // Chromium logs the cut response itself; nothing else may be an error.
    expect(errors.filter((e) => !e.includes('ERR_INCOMPLETE_CHUNKED_ENCODING'))).toEqual([]);
    await page.close();
  });

  it('journal: CSV import, list, São Paulo day chart, export, and the export imported again updates the same operations', async () => {
    const { page, errors } = await open('journal');
    await page.locator('input[name="owner"]').fill('trader@example.com');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('operations').waitFor();
    const csv = [
      HEADER,
      `,,cross_exchange,BTC,binance,okx,1,1,100,101,100.5,100.2,0.1,0,0,false,,,,${daysAgo(3)},${daysAgo(2)},dashboard,ext-a,first`,
      `,,cross_exchange,ETH,bybit,okx,2,2,50,50.5,50.6,50.4,0.2,0,0,false,,,,${daysAgo(2)},${daysAgo(1)},dashboard,ext-b,second`,
    ].join('\n');
    await page.getByTestId('import').setInputFiles({ name: 'ops.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect.poll(() => page.getByTestId('imported').innerText().catch(() => '')).toContain('2 created, 0 updated, 0 errors');
    await expect.poll(() => page.locator('[data-testid="operations"] tbody tr').count()).toBe(2);
    await page.locator('[data-testid="summary"] canvas').first().waitFor();
    await screenshot(page, 'journal', true);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export').click()]);
    const exported = readFileSync(await download.path(), 'utf8');
    expect(exported.split('\n')[0]).toBe(HEADER);
    expect(exported).toContain('ext-a');
    expect(exported).toContain('ext-b');
    await page.getByTestId('import').setInputFiles({ name: 'journal.csv', mimeType: 'text/csv', buffer: Buffer.from(exported) });
    await expect.poll(() => page.getByTestId('imported').innerText()).toContain('0 created, 2 updated, 0 errors');
    expect(await page.locator('[data-testid="operations"] tbody tr').count()).toBe(2);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('route: the recorded spread history is drawn from the series endpoint, one bucket per time slice that holds samples', async () => {
    // ADA-USDT is not quoted by the fixture, so its history is exactly what is imported here:
    // three samples in three 174 s buckets of the 1-day look-back, two samples in a fourth.
    const bucketMs = 174_000;
    const start = Math.floor((Date.now() - 43_200_000) / bucketMs) * bucketMs;
    const rowAt = (time: number, gross: number) => ({
      time: new Date(time).toISOString(), ticker: 'ADA-USDT', buyExchange: 'binance', sellExchange: 'okx', buyPrice: 1,
      sellPrice: 1 + gross / 100, grossSpreadPercent: gross, buyFeePercent: 0.1, sellFeePercent: 0.1, withdrawalFee: 1,
      withdrawalFeeUsd: 1, feesEstimated: false, executable: true, volume24h: null,
    });
    const rows = [rowAt(start, 0.4), rowAt(start + 5 * bucketMs, 0.9), rowAt(start + 9 * bucketMs, 0.2), rowAt(start + 12 * bucketMs, 0.5), rowAt(start + 12 * bucketMs + 10_000, 0.7)];
    const imported = await fetch(`${base}/v1/opportunity-history/import`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rows) });
    expect(imported.status).toBe(200);
    const { page, errors } = await open('route?ticker=ADA-USDT&buy=binance&sell=okx&days=1&threshold=0.3&basis=gross');
    const series = page.waitForResponse((r) => r.url().includes('/v1/opportunity-history/series'));
    await page.getByTestId('load-history').click();
    const answer = (await (await series).json()) as { points: { samples: number; maxSpread: number }[] };
    expect(answer.points.map((p) => [p.samples, p.maxSpread])).toEqual([[1, 0.4], [1, 0.9], [1, 0.2], [2, 0.7]]);
    await expect.poll(() => page.getByTestId('series-summary').innerText().catch(() => '')).toBe('spread history (gross): 4 buckets of 2 min 54 s');
    const chart = page.locator('[data-testid="history"] [data-testid="chart"]').first();
    expect(await chart.locator('.u-title').innerText()).toBe('Recorded gross spread %');
    // Nothing recorded in the last hour: the samples' chart says so and is not drawn.
    await expect.poll(() => page.getByTestId('samples-summary').innerText()).toBe('recorded samples (gross), last 60 min: 0, each held until the next, at most 1 s');
    expect(await chart.locator('canvas').evaluate((c) => { const canvas = c as unknown as { width: number; height: number }; return canvas.width * canvas.height; })).toBeGreaterThan(0);
    // The same history asked again within 30 s costs no request of the arbitrage group's budget.
    const asked: string[] = [];
    page.on('request', (r) => { if (r.url().includes('/v1/opportunity-history/')) asked.push(r.url()); });
    await page.getByTestId('load-history').click();
    await page.locator('input[name="days"]').fill('2');
    await page.locator('input[name="days"]').dispatchEvent('change');
    // The load's last request is the recorded samples (the first load's answered before the summary above showed).
    const refreshed = page.waitForResponse((r) => r.url().includes('/v1/opportunity-history/samples'));
    await page.getByTestId('load-history').click();
    await refreshed;
    // Had the repeated click fetched, its first request (stats, days=1) would be here before the days=2 ones.
    // Four requests a load: stats, lifetimes and the series of the look-back, and the recorded samples.
    expect(asked).toHaveLength(4);
    expect(asked.slice(0, 3).every((u) => u.includes('days=2'))).toBe(true);
    expect(asked[3]).toContain('minutes=60');
    await screenshot(page, 'route-series');
    expect(errors).toEqual([]);
    await page.close();
  });

  it("an API error shows the API's message, on a REST page and on a refused stream", async () => {
    const { page } = await open('journal?from=2026-03-02&to=2026-03-01');
    await expect.poll(() => page.getByTestId('error').innerText().catch(() => '')).toBe('to must be after from');
    await screenshot(page, 'error-journal');
    await page.goto(`${base}/#/opportunities?minProfit=500`);
    await expect.poll(() => page.getByTestId('stream-banner').innerText().catch(() => '')).toContain('minProfit must be a number from 0 to 100');
    await screenshot(page, 'error-stream');
    await page.close();
  });

  it('every page loads against the service and the simulator with no console error and no request elsewhere; funding sorts by a column', async () => {
    const { page, errors } = await open('opportunities');
    await page.evaluate(`localStorage.setItem('${OWNER_KEY}', 'trader@example.com')`);
    await page.getByTestId('opportunities').waitFor();
    await page.goto(`${base}/#/prices`);
    await expect.poll(() => page.getByTestId('price-row').count(), { timeout: 10_000 }).toBeGreaterThan(10);
    await screenshot(page, 'prices-few-markets');
    await page.goto(`${base}/#/route?ticker=SOL-USDT&buy=binance&sell=okx&days=1&threshold=0.1`);
    await page.getByTestId('load-history').click();
    await page.getByTestId('history').waitFor();
    await page.getByTestId('run-backtest').click();
    await page.getByTestId('backtest').waitFor();
    await screenshot(page, 'route', true);
    await page.goto(`${base}/#/funding`);
    await expect.poll(() => page.locator('[data-testid="funding"] tbody tr').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await screenshot(page, 'funding', true);
    const aprs = async (): Promise<number[]> =>
      (await page.locator('[data-testid="funding"] tbody td:nth-child(6)').allInnerTexts()).filter((t) => t !== '–').map((t) => Number(t.replace(/[ %,]/g, '')));
    const sorted = (xs: number[], dir: 1 | -1): boolean => xs.every((x, i) => i === 0 || dir * (x - (xs[i - 1] ?? x)) >= 0);
    expect(sorted(await aprs(), -1)).toBe(true);
    await page.getByRole('button', { name: /^APR/ }).click();
    await page.waitForURL(/sort=aprPercent&dir=asc/);
    expect(sorted(await aprs(), 1)).toBe(true);
    await page.goto(`${base}/#/journal`);
    await page.getByTestId('summary').waitFor();
    await page.goto(`${base}/#/status`);
    await expect.poll(() => page.getByTestId('feeds').innerText()).toContain('connected');
    expect(await page.getByTestId('version').innerText()).toBe(SERVICE_VERSION);
    await screenshot(page, 'status', true);
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    await page.close();
  });

  it("alerts: the owner's rules and last deliveries, a failing delivery with its error, no secret on the page", async () => {
    const secret = 'whsec_dashboard_secret_Zq81';
    const owner = 'alerts-page@example.com';
    await request(base).post('/v1/alerts/rules').send({
      email: owner, name: 'ETH over 0.5 %', kind: 'opportunity', condition: { tickers: ['ETH-USDT'], minProfit: 0.5 },
      // Nothing listens on port 9: the delivery fails and says so.
      channel: { type: 'webhook', url: 'http://127.0.0.1:9/hook', secret },
    }).expect(201);
    await m.app.app.get(AlertEvaluatorService).reload();
    const { page, errors } = await open('status');
    await page.evaluate(`localStorage.setItem('${OWNER_KEY}', '${owner}')`);
    await page.goto(`${base}/#/alerts`);
    // The owner is read when the app starts: load it again.
    await page.reload();
    await page.getByTestId('alert-rule').first().waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('alert-rules').innerText()).toContain('ETH over 0.5 %');
    await m.putQuotes([
      { exchange: 'binance', market: 'SPOT', ticker: 'ETH-USDT', bid: 1999, ask: 2000 },
      { exchange: 'bybit', market: 'SPOT', ticker: 'ETH-USDT', bid: 1999, ask: 2000 },
      { exchange: 'okx', market: 'SPOT', ticker: 'ETH-USDT', bid: 2020, ask: 2021 },
    ]);
    const delivery = page.getByTestId('alert-delivery').filter({ hasText: 'ETH-USDT binance->okx' });
    await expect.poll(async () => (await delivery.count()) > 0 && (await delivery.first().innerText()).includes('pending'), { timeout: 15_000 }).toBe(true);
    await screenshot(page, 'alerts', true);
    expect(await page.content()).not.toContain(secret);
    expect(errors).toEqual([]);
    await page.close();
  });
});
