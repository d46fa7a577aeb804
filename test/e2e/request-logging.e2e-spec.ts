import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../utils/test-app.js';

interface Line {
  level: string;
  context?: string;
  msg?: string;
  requestId?: string;
  error?: { name?: string; message?: string; stack?: string };
  statement?: string;
}

/** An unexpected error is logged once, as its class and message with the request id: no stack, no SQL (rules: logs). */
describe('request logging: request id on every line, unexpected errors once without stack or SQL', () => {
  let t: TestApp;
  const lines: Line[] = [];

  beforeAll(async () => {
    const write = process.stdout.write.bind(process.stdout);
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const text = String(chunk);
      if (text.startsWith('{"level"')) {
        lines.push(JSON.parse(text) as Line);
        return true;
      }
      return write(chunk, ...(rest as []));
    });
    t = await startTestApp({ LOG_LEVEL: 'debug', LOG_FORMAT: 'json', SAMPLE_INTERVAL_MS: '0', HISTORY_INTERVAL_MS: '0', CROSSING_JOB_ENABLED: '0' });
  });
  afterAll(async () => {
    await t.close();
    vi.restoreAllMocks();
  });

  it('a database failure: 500 with the API contract text; one error line with class, message and id, no stack or SQL; every line of the request has the id', async () => {
    await t.app.get(DataSource).query('DROP TABLE favorite_cryptos');
    lines.length = 0;
    const res = await request(t.baseUrl).get('/v1/favorite-cryptos').query({ email: 'log@example.com' }).expect(500);
    const id = res.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body).toEqual({ statusCode: 500, message: 'Failed to get favorite cryptos', error: 'Internal Server Error' });
    await vi.waitFor(() => expect(lines.some((l) => l.msg === 'request' && l.requestId === id)).toBe(true));

    const errors = lines.filter((l) => l.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ context: 'Exceptions', msg: 'unexpected error', requestId: id });
    expect(errors[0]?.error).toEqual({ name: 'QueryFailedError', message: 'relation "favorite_cryptos" does not exist' });
    // The request's lines: the failed query (debug, its verb and table only), the error, the access line.
    const ofRequest = lines.filter((l) => l.context === 'Database' || l.context === 'Exceptions' || l.context === 'Http');
    expect(ofRequest.length).toBeGreaterThanOrEqual(3);
    expect(ofRequest.every((l) => l.requestId === id)).toBe(true);
    expect(ofRequest.find((l) => l.msg === 'query failed')?.statement).toBe('SELECT favorite_cryptos');
    const text = JSON.stringify(lines);
    expect(text).not.toMatch(/\\n\s+at |"stack"|SELECT "|WHERE /);
  });

  it("the caller's X-Request-Id (when sane) is the id of the response and of the lines", async () => {
    lines.length = 0;
    const res = await request(t.baseUrl).get('/v1/favorite-cryptos').query({ email: 'log@example.com' }).set('X-Request-Id', 'trace-42').expect(500);
    expect(res.headers['x-request-id']).toBe('trace-42');
    await vi.waitFor(() => expect(lines.some((l) => l.msg === 'request')).toBe(true));
    expect(lines.filter((l) => l.level === 'error').map((l) => l.requestId)).toEqual(['trace-42']);
  });
});
