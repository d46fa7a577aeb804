import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService } from '../../src/bootstrap.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';
import { onPostgres } from '../utils/test-database.js';

describe('platform: errors, docs, health, metrics, CORS, security headers (rules: errors, operating)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ CORS_ORIGINS: 'https://app.example.com' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('runs on the database the environment selects (PostgreSQL under npm run test:pg)', () => {
    const options = t.app.get(DataSource).options as { url?: string; driver?: unknown };
    expect(Boolean(options.url)).toBe(onPostgres());
    expect(Boolean(options.driver)).toBe(!onPostgres());
  });

  it('GET /health answers 200 while the database answers', async () => {
    const res = await request(t.baseUrl).get('/health').expect(200);
    expect(res.body.status).toBe('ok');
  });

  it('an unknown route is a 404 with the `errors` rule body', async () => {
    const res = await request(t.baseUrl).get('/v1/no-such-thing').expect(404);
    expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    expect(typeof res.body.message).toBe('string');
  });

  it('a body over 1 MiB is a 413 with the `errors` rule body', async () => {
    const big = JSON.stringify({ email: 'a@b.co', ticker: 'BTCUSDT', pad: 'x'.repeat(1024 * 1024) });
    const res = await request(t.baseUrl)
      .post('/v1/favorite-cryptos')
      .set('Content-Type', 'application/json')
      .send(big)
      .expect(413);
    expect(res.body).toEqual({ statusCode: 413, message: 'request body too large', error: 'Payload Too Large' });
  });

  it('serves Swagger UI at /docs and the OpenAPI document at /docs-json', async () => {
    const ui = await request(t.baseUrl).get('/docs/').expect(200);
    expect(ui.text).toContain('swagger-ui');
    const doc = await request(t.baseUrl).get('/docs-json').expect(200);
    const post = doc.body.paths['/v1/favorite-cryptos'].post;
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['201', '400', '409', '500']));
    expect(doc.body.components.schemas.CreateFavoriteCryptoDto.properties.ticker.example).toBe('BTCUSDT');
  });

  it('exposes Prometheus metrics with request counts by route and status', async () => {
    await request(t.baseUrl).get('/v1/favorite-cryptos').query({ email: 'metrics@example.com' }).expect(200);
    const res = await request(t.baseUrl).get('/metrics').expect(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.text).toMatch(/http_requests_total\{method="GET",route="\/v1\/favorite-cryptos",status="200"\} \d+/);
    expect(res.text).toContain('http_request_duration_seconds_bucket');
    expect(res.text).toContain('process_cpu_user_seconds_total');
  });

  it('answers CORS preflights and requests for the configured origin', async () => {
    const pre = await request(t.baseUrl)
      .options('/v1/favorite-cryptos')
      .set('Origin', 'https://app.example.com')
      .set('Access-Control-Request-Method', 'POST')
      .expect(204);
    expect(pre.headers['access-control-allow-origin']).toBe('https://app.example.com');
    const res = await request(t.baseUrl).get('/health').set('Origin', 'https://app.example.com');
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example.com');
    const other = await request(t.baseUrl).get('/health').set('Origin', 'https://evil.example.com');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('sets security headers and a request id', async () => {
    const res = await request(t.baseUrl).get('/health');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await request(t.baseUrl).get('/health').set('X-Request-Id', 'abc-123');
    expect(echoed.headers['x-request-id']).toBe('abc-123');
  });

  it('an unexpected error is the endpoint’s documented 500 text, with no SQL, stack or path', async () => {
    const ds = t.app.get(DataSource);
    await ds.query('ALTER TABLE favorite_cryptos RENAME TO favorite_cryptos_gone');
    try {
      const res = await request(t.baseUrl)
        .post('/v1/favorite-cryptos')
        .send({ email: 'boom@example.com', ticker: 'BTCUSDT' })
        .expect(500);
      expect(res.body).toEqual({ statusCode: 500, message: 'Failed to create favorite crypto', error: 'Internal Server Error' });
      expect(res.text).not.toMatch(/INSERT|favorite_cryptos|\.ts|\.js|at /);
    } finally {
      await ds.query('ALTER TABLE favorite_cryptos_gone RENAME TO favorite_cryptos');
    }
  });
});

describe('start-up configuration', () => {
  it('PORT=abc stops start-up with exit code 1 and a message naming PORT', async () => {
    const written: string[] = [];
    const code = await startService({ PORT: 'abc' }, (line) => written.push(line));
    expect(code).toBe(1);
    expect(written.join('')).toContain('PORT must be an integer from 1 to 65535');
  });
});
