import type { Browser } from 'playwright-core';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiTokenEntity } from '../../src/auth/api-token.entity.js';
import { ApiTokenStore } from '../../src/auth/api-token-store.js';
import { launchChromium } from '../utils/browser.js';
import { type MarketFixture, startMarketFixture } from '../utils/market-fixture.js';

const EMAIL = 'dashboard@example.com';
const TOKEN_KEY = 'arbitrage-monitor.api-token';
/** The page's storages, typed without the DOM library the tests compile without. */
type PageStorage = { sessionStorage: { getItem(key: string): string | null }; localStorage: object };

/**
 * The dashboard against a service run with AUTH_MODE=token and AUTH_PUBLIC_MARKET=0 (every route
 * but health needs a token): the token is asked once with the owner email, kept in the tab's
 * sessionStorage, sent as a bearer header on API calls and the CSV export, and traded for stream
 * tickets by the page's stream and by the prices worker.
 */
describe('dashboard with bearer tokens, in Chromium', () => {
  let m: MarketFixture;
  let browser: Browser;
  let token: string;

  beforeAll(async () => {
    [m, browser] = await Promise.all([
      startMarketFixture(['binance', 'okx'], ['BTC-USDT', 'ETH-USDT'], { AUTH_MODE: 'token', AUTH_PUBLIC_MARKET: '0', HISTORY_INTERVAL_MS: '0' }),
      launchChromium(),
    ]);
    await m.waitConnected();
    token = (await new ApiTokenStore(m.app.app.get(DataSource).getRepository(ApiTokenEntity)).create({ email: EMAIL })).token;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await m?.close();
  });

  it('without a token the journal shows the 401 message; with one it loads, exports, and the streams open through tickets', async () => {
    // No token: the API's own message, not a blank page.
    const anonymous = await browser.newContext();
    const refused = await anonymous.newPage();
    await refused.goto(`${m.app.baseUrl}/#/journal`);
    await refused.locator('input[name="owner"]').fill(EMAIL);
    await refused.getByRole('button', { name: 'Save' }).click();
    await refused.getByText('missing or invalid token').first().waitFor({ timeout: 10_000 });
    await anonymous.close();

    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(`${m.app.baseUrl}/#/journal`);
    await page.locator('input[name="owner"]').fill(EMAIL);
    await page.locator('input[name="token"]').fill(token);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('operations').waitFor({ timeout: 10_000 });
    expect(await page.getByText('missing or invalid token').count()).toBe(0);
    // Kept for the tab only, never in localStorage.
    expect(await page.evaluate((k) => (globalThis as unknown as PageStorage).sessionStorage.getItem(k), TOKEN_KEY)).toBe(token);
    expect(await page.evaluate(() => JSON.stringify({ ...(globalThis as unknown as PageStorage).localStorage }))).not.toContain(token);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export').click()]);
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString('utf8').split('\n')[0]).toMatch(/^id,status,strategy/);

    // Market streams need a token here: the page's stream and the prices worker buy tickets.
    await page.goto(`${m.app.baseUrl}/#/opportunities`);
    await page.getByTestId('stream-state').getByText('open').waitFor({ timeout: 10_000 });
    await page.goto(`${m.app.baseUrl}/#/prices`);
    await expect.poll(() => page.getByTestId('price-count').innerText(), { timeout: 10_000 }).toMatch(/^[1-9]\d* of [1-9]\d* markets$/);
    expect(JSON.stringify(await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name)))).not.toContain(token);
    await context.close();
  }, 90_000);
});
