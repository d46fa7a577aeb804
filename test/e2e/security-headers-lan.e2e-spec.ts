import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../utils/browser.js';
import { createLanNamespace, type LanNamespace } from '../utils/lan-namespace.js';
import { startServiceProcess, type ServiceProcess } from '../utils/service-process.js';

const QUIET = {
  DB_PATH: ':memory:', ENABLED_WEBSOCKET: '0', SAMPLE_INTERVAL_MS: '0', HISTORY_INTERVAL_MS: '0', FUNDING_REFRESH_MS: '0', CROSSING_JOB_ENABLED: '0',
};

interface Answer { url: string; status: number; csp: string | undefined; hsts: string | undefined }

/** Every request a page makes, the answers with the headers the browser got, and what failed. */
interface Watched {
  requested: string[];
  failed: string[];
  answers(): Promise<Answer[]>;
}

function watch(page: Page): Watched {
  const requested: string[] = [];
  const failed: string[] = [];
  const answers: Promise<Answer>[] = [];
  page.on('request', (r) => requested.push(r.url()));
  page.on('requestfailed', (r) => failed.push(`${r.url()}: ${r.failure()?.errorText ?? 'failed'}`));
  // allHeaders(): headers() leaves security headers out.
  const read = async (res: Response): Promise<Answer> => {
    const headers = await res.allHeaders();
    return { url: res.url(), status: res.status(), csp: headers['content-security-policy'], hsts: headers['strict-transport-security'] };
  };
  page.on('response', (res) => answers.push(read(res)));
  return { requested, failed, answers: () => Promise.all(answers) };
}

/** How many rules each stylesheet of the page holds: 0 for one that did not load. */
const styleRules = (page: Page): Promise<number[]> =>
  page.evaluate<number[]>("[...document.querySelectorAll('link[rel=stylesheet]')].map((l) => (l.sheet ? l.sheet.cssRules.length : 0))");

/**
 * rules: exposure, as a trader on a LAN or a VPS meets it. The service runs in a network namespace
 * the test makes (a second machine on a private link), listening on its 10.199.x.y address with token
 * auth, and Debian's Chromium loads the dashboard and Swagger UI from it over plain http. Chromium
 * treats 127.0.0.0/8 as secure and would not upgrade anything there, so only an address like this
 * one shows the defect: with `upgrade-insecure-requests` on the answer, every script and
 * stylesheet is asked over https, fails, and the page stays blank.
 */
describe('over plain http on a LAN address, the dashboard and Swagger UI load in Chromium (rules: exposure)', () => {
  let lan: LanNamespace | undefined;
  let service: ServiceProcess | undefined;
  let browser: Browser | undefined;
  let base: string;

  beforeAll(async () => {
    // One after the other: a service started beside a browser that failed to launch would be left running.
    browser = await launchChromium();
    lan = await createLanNamespace();
    service = await startServiceProcess({ ...QUIET, HOST: lan.address, AUTH_MODE: 'token' }, 90_000, { via: lan.exec, address: lan.address });
    base = service.baseUrl;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    service?.signal('SIGKILL');
    await service?.exited;
    await lan?.remove();
  });

  const expectServedOverHttp = async (watched: Watched): Promise<void> => {
    expect(watched.requested.filter((url) => !url.startsWith(`${base}/`) && !url.startsWith('data:'))).toEqual([]);
    expect(watched.failed).toEqual([]);
    const answers = await watched.answers();
    expect(answers.length).toBeGreaterThan(2);
    expect(answers.filter((a) => a.status >= 400).map((a) => `${a.url}: ${a.status}`)).toEqual([]);
    // The CSP is there (so its directive's absence means something), without the upgrade; no HSTS.
    expect(answers.filter((a) => !a.csp?.includes("default-src 'self'")).map((a) => a.url)).toEqual([]);
    expect(answers.filter((a) => a.csp?.includes('upgrade-insecure-requests')).map((a) => a.url)).toEqual([]);
    expect(answers.filter((a) => a.hsts !== undefined).map((a) => `${a.url}: ${a.hsts}`)).toEqual([]);
  };

  /**
   * Opens `path` in a fresh page and, at its load event (its scripts and stylesheets fetched),
   * checks what the browser did: every request went to the service over http, none failed, every
   * answer carried the CSP without `upgrade-insecure-requests` and no HSTS. Each test checks again
   * once the page has shown its content, for the requests its script made.
   */
  const open = async (path: string): Promise<{ page: Page; watched: Watched }> => {
    const page = await browser!.newPage();
    const watched = watch(page);
    await page.goto(`${base}${path}`, { waitUntil: 'load' });
    await expectServedOverHttp(watched);
    return { page, watched };
  };

  it('the service listens on the namespace address, with token auth and no open-access warning', () => {
    const records = service!.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { context?: string; msg?: string; address?: string });
    expect(records.find((r) => r.context === 'Bootstrap' && r.msg === 'listening')?.address).toBe(lan!.address);
    expect(records.filter((r) => r.msg?.includes('ALLOW_OPEN_ACCESS'))).toEqual([]);
    expect(base).toBe(`http://${lan!.address}:${new URL(base).port}`);
  });

  it('the dashboard: its script and stylesheet load over http, and the status page shows what the API said', async () => {
    const { page, watched } = await open('/#/status');
    // The page fetches /health/market and /health once its script runs: both shown means it did.
    await page.getByTestId('feeds-off').waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('health').innerText(), { timeout: 15_000 }).toBe('ok');
    expect(watched.requested).toEqual(expect.arrayContaining([
      expect.stringMatching(/\/assets\/index-[\w-]+\.js$/), expect.stringMatching(/\/assets\/index-[\w-]+\.css$/), `${base}/health/market`,
    ]));
    const rules = await styleRules(page);
    expect(rules).toHaveLength(1);
    expect(rules[0]).toBeGreaterThan(0);
    await expectServedOverHttp(watched);
    await page.close();
  }, 60_000);

  it('Swagger UI at /docs: its bundle and stylesheet load over http, and the operations are listed', async () => {
    const { page, watched } = await open('/docs');
    await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
    expect(watched.requested).toEqual(expect.arrayContaining([
      `${base}/docs/swagger-ui-bundle.js`, `${base}/docs/swagger-ui-init.js`, `${base}/docs/swagger-ui.css`,
    ]));
    const rules = await styleRules(page);
    expect(rules.length).toBeGreaterThan(0);
    expect(rules.filter((n) => n === 0)).toEqual([]);
    await expectServedOverHttp(watched);
    await page.close();
  }, 60_000);
});
