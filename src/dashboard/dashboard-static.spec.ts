import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardStatic } from './dashboard-static.js';

describe('dashboardStatic', () => {
  let dir: string;
  let app: express.Express;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'dashboard-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>dash</title>');
    writeFileSync(path.join(dir, 'assets', 'index-abc.js'), 'console.log(1)');
    writeFileSync(path.join(dir, 'secret.txt'), 'not served');
    const serve = dashboardStatic(dir);
    if (!serve) throw new Error('expected a middleware');
    app = express();
    app.use(serve);
    app.use((req, res) => {
      res.status(404).json({ statusCode: 404, message: `Cannot ${req.method} ${req.path}`, error: 'Not Found' });
    });
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves index.html at / without caching and hashed assets for good', async () => {
    const index = await request(app).get('/').expect(200);
    expect(index.headers['content-type']).toMatch(/text\/html/);
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(index.text).toContain('<title>dash</title>');
    const js = await request(app).get('/assets/index-abc.js').expect(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    await request(app).head('/').expect(200);
  });

  it('leaves every other path, method and missing asset to the API (its 404)', async () => {
    for (const p of ['/secret.txt', '/v1/anything', '/assets/missing.js', '/assets/../secret.txt', '/docs']) {
      const res = await request(app).get(p);
      expect(res.status, p).toBe(404);
      expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
    await request(app).post('/').expect(404);
  });

  it('answers null when the dashboard is not built', () => {
    expect(dashboardStatic(path.join(dir, 'nowhere'))).toBeNull();
  });
});
