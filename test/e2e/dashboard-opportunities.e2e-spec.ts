import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectErrors, launchChromium, screenshot } from '../utils/browser.js';
import { type MarketFixture, startMarketFixture } from '../utils/market-fixture.js';

type Level = [number, number];
const WIDTH = 1280;

/**
 * The Opportunities page at a laptop's width, with order books behind two routes: a sub-cent
 * coin (SHIB, prices of 0.0000x) and a five-figure one (BTC), so both ends of the price range are
 * on screen at once. bybit's books span every price set here, so no route of it opens.
 */
describe('dashboard opportunities at 1,280 px in Chromium', () => {
  let m: MarketFixture;
  let browser: Browser;
  const books = async (ticker: string, list: { exchange: string; bids: Level[]; asks: Level[] }[]): Promise<void> => {
    const res = await fetch(`${m.sim.url}/_sim/books`, {
      method: 'PUT', headers: { 'content-type': 'application/json' },
      body: JSON.stringify(list.map((b) => ({ ...b, market: 'SPOT', ticker }))),
    });
    expect(res.status, await res.clone().text()).toBe(200);
  };

  beforeAll(async () => {
    [m, browser] = await Promise.all([
      startMarketFixture(['binance', 'okx', 'bybit'], ['SHIB-USDT', 'BTC-USDT'], { SAMPLE_INTERVAL_MS: '0' }),
      launchChromium(),
    ]);
    await m.waitConnected();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await m?.close();
  });

  const rightEdge = async (l: Locator): Promise<number> => {
    const box = await l.boundingBox();
    if (!box) throw new Error('not laid out');
    return box.x + box.width;
  };

  it('shows the route priced at size as separate readable columns, small prices in full, and keeps network, transferable and age on screen', async () => {
    const context = await browser.newContext({ viewport: { width: WIDTH, height: 800 } });
    const page: Page = await context.newPage();
    const errors = collectErrors(page);
    await page.goto(`${m.app.baseUrl}/#/opportunities`);
    await page.getByTestId('stream-state').getByText('open').waitFor({ timeout: 10_000 });
    // 1,000 USDT at binance fills 660 USDT at 0.000022, the rest one tick higher.
    await books('SHIB-USDT', [
      { exchange: 'binance', bids: [[0.00002199, 900_000_000]], asks: [[0.000022, 30_000_000], [0.00002201, 900_000_000]] },
      { exchange: 'okx', bids: [[0.0000225, 900_000_000]], asks: [[0.00002251, 900_000_000]] },
      { exchange: 'bybit', bids: [[0.00002, 900_000_000]], asks: [[0.000025, 900_000_000]] },
    ]);
    await books('BTC-USDT', [
      { exchange: 'binance', bids: [[96_999.9, 1]], asks: [[97_000, 0.005], [97_010.5, 1]] },
      { exchange: 'okx', bids: [[98_000, 1]], asks: [[98_000.1, 1]] },
      { exchange: 'bybit', bids: [[90_000, 1]], asks: [[110_000, 1]] },
    ]);
    const shib = page.locator('tr[data-ticker="SHIB-USDT"]', { hasText: 'binance → okx' }).first();
    const btc = page.locator('tr[data-ticker="BTC-USDT"]', { hasText: 'binance → okx' }).first();
    const cell = (row: Locator, col: string): Locator => row.locator(`td[data-col="${col}"]`);
    // A route's first event comes before its books are held: wait for the one priced at size.
    await expect.poll(() => cell(shib, 'buy-avg').innerText().catch(() => ''), { timeout: 10_000 }).toMatch(/^0\.0000220\d+$/);
    await expect.poll(() => cell(btc, 'buy-avg').innerText().catch(() => ''), { timeout: 10_000 }).toMatch(/^97,0\d\d(\.\d+)?$/);
    await screenshot(page, 'opportunities-1280');

    expect(await cell(shib, 'buy').innerText()).toBe('0.000022');
    expect(await cell(shib, 'sell').innerText()).toBe('0.0000225');
    expect(await cell(shib, 'sell-avg').innerText()).toBe('0.0000225');
    expect(await cell(shib, 'net-at-size').innerText()).toMatch(/^-?\d+\.\d+ %/);
    expect(await cell(shib, 'max-size').innerText()).toMatch(/^\d[\d,]*(\.\d+)?$/);
    expect(await cell(shib, 'depth-age').innerText()).toMatch(/^(\d+ ms|\d+(\.\d)? s)$/);
    expect(await cell(btc, 'buy').innerText()).toBe('97,000');
    expect(await cell(btc, 'sell-avg').innerText()).toBe('98,000');
    // The API's member names are not what a trader reads.
    expect(await page.getByTestId('opportunities').innerText()).not.toMatch(/notionalUsdt|buyAvgPrice|depthAgeMs/);

    for (const col of ['network', 'transferable', 'age']) {
      expect(await rightEdge(page.locator(`[data-testid="opportunities"] th[data-col="${col}"]`)), `${col} header`).toBeLessThanOrEqual(WIDTH);
      for (const row of [shib, btc]) expect(await rightEdge(cell(row, col)), `${col} cell`).toBeLessThanOrEqual(WIDTH);
    }
    expect(Number(await page.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(WIDTH);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
