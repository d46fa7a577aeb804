import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../utils/test-app.js';

/**
 * Hostile bodies against every body parser, read from the running service's OpenAPI document so
 * that a new endpoint with a body cannot be left out: for each operation and each content type it
 * declares, a body that content type's parser cannot read. JSON that cannot be parsed is a 400
 * `Invalid request body`, except where the contract makes it a 500 `Failed to parse request body`
 * (the crossing-count POST); any other parser answers a 400 of its own. Every answer has the
 * house error shape and no trace of the parser's internals.
 */
interface Operation {
  requestBody?: { content: Record<string, unknown> };
}
type Document = { paths: Record<string, Record<string, Operation>> };

const CONTRACT_500 = new Set(['POST /v1/arbitrage/future/crossing-counts']);
const UNREADABLE: Record<string, string> = {
  'application/json': '{"email": "a@example.com", "ticker": ',
  'application/x-ndjson': '{"time":"2026-01-01T00:00:00Z"}\n{"time": "2026-01-01T00:00:05Z", \n',
  'text/csv': 'id,status,strategy\n"unterminated,open,other\n',
};

describe('every body parser refuses a body it cannot read, in the house error shape', () => {
  let t: TestApp;
  let cases: [string, string, string][] = [];

  beforeAll(async () => {
    t = await startTestApp({ ARBITRAGE_RATE_LIMIT: '100000', SAMPLE_INTERVAL_MS: '0', CROSSING_JOB_ENABLED: '0' });
    const doc = (await request(t.baseUrl).get('/docs-json').expect(200)).body as Document;
    cases = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).flatMap(([method, op]) =>
        Object.keys(op.requestBody?.content ?? {}).map((type): [string, string, string] => [method.toUpperCase(), path, type])));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the document lists the bodies this test knows how to break', () => {
    expect(cases.length).toBeGreaterThanOrEqual(11);
    for (const [, , type] of cases) expect(Object.keys(UNREADABLE)).toContain(type);
  });

  it('each is refused with its documented status and message, and the service stays up', async () => {
    const answers: string[] = [];
    for (const [method, template, type] of cases) {
      const path = template.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
      const call = request(t.baseUrl)[method.toLowerCase() as 'post' | 'patch' | 'put'](`${path}?email=a@example.com`);
      const res = await call.set('Content-Type', type).send(UNREADABLE[type] ?? '');
      const key = `${method} ${template}`;
      answers.push(`${key} ${type} → ${res.status} ${JSON.stringify(res.body)}`);
      expect(Object.keys(res.body as object).sort(), key).toEqual(['error', 'message', 'statusCode']);
      expect(JSON.stringify(res.body), key).not.toMatch(/\bat \S+:\d+|node_modules|SyntaxError|Unexpected (token|end)/);
      if (CONTRACT_500.has(key)) {
        expect(res.body, key).toEqual({ statusCode: 500, message: 'Failed to parse request body', error: 'Internal Server Error' });
      } else if (type === 'application/json') {
        expect(res.body, key).toEqual({ statusCode: 400, message: 'Invalid request body', error: 'Bad Request' });
      } else {
        expect(res.status, `${key} ${type}: ${JSON.stringify(res.body)}`).toBe(400);
      }
    }
    expect(answers).toHaveLength(cases.length);
    await request(t.baseUrl).get('/health').expect(200);
  });
});
