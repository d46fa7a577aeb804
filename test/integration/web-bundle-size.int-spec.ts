import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The dashboard build ends with web/scripts/check-size.mjs: it prints the gzipped size of the
 * JavaScript index.html loads first (entry script and modulepreloads) and fails over 200 KB.
 * Here it runs on build folders made for the test.
 */
describe('dashboard build: initial JS size printed and checked against 200 KB gzipped', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** A build folder whose index.html loads `entry` and preloads `preload` (bytes of each). */
  const dist = (files: Record<string, Buffer>, html: string): string => {
    const dir = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
    dirs.push(dir);
    mkdirSync(path.join(dir, 'assets'));
    for (const [name, bytes] of Object.entries(files)) writeFileSync(path.join(dir, name), bytes);
    writeFileSync(path.join(dir, 'index.html'), html);
    return dir;
  };
  const check = (dir: string) =>
    spawnSync(process.execPath, ['web/scripts/check-size.mjs'], { env: { ...process.env, WEB_DIST_DIR: dir }, encoding: 'utf8' });
  const page = '<script type="module" crossorigin src="/assets/index-a.js"></script><link rel="modulepreload" crossorigin href="/assets/vendor-b.js">';

  it('under the budget: each initial script and the total printed, exit 0; a lazy chunk is not counted', () => {
    // Random bytes do not compress: 60 KB + 40 KB stay about 100 KB gzipped.
    const dir = dist({ 'assets/index-a.js': randomBytes(60 * 1024), 'assets/vendor-b.js': randomBytes(40 * 1024), 'assets/lazy-c.js': randomBytes(300 * 1024) }, page);
    const run = check(dir);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^initial JS assets\/index-a\.js: 60\.\d KB gzipped$/m);
    expect(run.stdout).toMatch(/^initial JS assets\/vendor-b\.js: 40\.\d KB gzipped$/m);
    expect(run.stdout).toMatch(/^initial JS total: 100\.\d KB gzipped, within the 200 KB budget$/m);
    expect(run.stdout).not.toContain('lazy-c');
  });

  it('over the budget: the total is printed as OVER and the build fails', () => {
    const dir = dist({ 'assets/index-a.js': randomBytes(150 * 1024), 'assets/vendor-b.js': randomBytes(60 * 1024) }, page);
    const run = check(dir);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^initial JS total: 210\.\d KB gzipped, OVER the 200 KB budget$/m);
  });

  it('an index.html that loads no script fails rather than passing with 0 KB', () => {
    const run = check(dist({}, '<html></html>'));
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('check-size: no script found in dist/index.html');
  });
});
