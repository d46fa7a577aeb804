import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { DASHBOARD_DIR } from '../../src/dashboard/dashboard-static.js';

/** Debian's Chromium, never a downloaded browser. CI installs it (.ci/run); without it the tests fail. */
export const CHROMIUM = '/usr/bin/chromium';

/** Where the dashboard tests leave their screenshots (gitignored). */
export const SCREENSHOT_DIR = path.resolve('test-results/dashboard');

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)`);
  if (!existsSync(path.join(DASHBOARD_DIR, 'index.html'))) throw new Error('web/dist is missing: run npm run build:web first (npm test does)');
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
}

/** Console errors and uncaught exceptions of a page, as text. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(`page: ${error.message}`));
  return errors;
}

/**
 * Saves a full-page PNG under test-results/dashboard/. A picture the README shows (`readme`) is
 * also written to the folder DASHBOARD_SCREENSHOTS names, when set (docs/dashboard).
 */
export async function screenshot(page: Page, name: string, readme = false): Promise<void> {
  const docs = readme ? process.env.DASHBOARD_SCREENSHOTS : undefined;
  for (const dir of docs ? [SCREENSHOT_DIR, path.resolve(docs)] : [SCREENSHOT_DIR]) {
    mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
  }
}
