import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataSource } from 'typeorm';
import { ApiTokenEntity } from '../../src/auth/api-token.entity.js';
import { ApiTokenStore } from '../../src/auth/api-token-store.js';
import { findDocumentProblems, isStream, operationsOf } from '../../src/common/openapi/openapi-rules.js';
import { type JsonSchema, schemaErrors } from '../utils/openapi-schema.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

interface Exchange { method: string; path: string; status: number; contentType: string; body: string }
type Doc = Parameters<typeof findDocumentProblems>[0];

/**
 * openapi.json as a web team uses it without running the service: it is the document the app
 * serves, it breaks none of openapi-rules.ts, and a client generated from it (openapi-typescript
 * + openapi-fetch, compiled with `tsc --strict`) calls every non-stream operation of the app,
 * each answer having a documented status and a body that matches the documented schema.
 */
describe('OpenAPI contract: openapi.json, a generated client, the app', () => {
  let t: TestApp;
  let doc: Doc;

  beforeAll(async () => {
    // The client's alert rule posts to a local receiver (rules: outbound-targets allows it with the flag).
    t = await startTestApp({ ALERT_TARGETS_ALLOW_PRIVATE: '1' });
    doc = JSON.parse(await readFile(`${root}openapi.json`, 'utf8')) as Doc;
  });

  afterAll(async () => {
    await t?.close();
  });

  it('the committed openapi.json is the document the app serves at /docs-json', async () => {
    const live = await request(t.baseUrl).get('/docs-json').expect(200);
    expect(live.body).toEqual(doc);
  });

  it('every operation has real types, a method-like id, the `errors` rule errors with texts and request examples', () => {
    expect(findDocumentProblems(doc)).toEqual([]);
  });

  it('a client generated from openapi.json compiles with tsc --strict and every call answers as documented, without and with AUTH_MODE=token', async () => {
    await mkdir(`${root}.contract-build`, { recursive: true });
    const dir = await mkdtemp(`${root}.contract-build/run-`);
    try {
      await run(process.execPath, [`${root}node_modules/openapi-typescript/bin/cli.js`, `${root}openapi.json`, '-o', `${dir}/api.ts`]);
      await copyFile(`${root}test/openapi-client/client.ts`, `${dir}/client.ts`);
      const tsc = [`${root}node_modules/typescript/bin/tsc`, '--ignoreConfig', '--strict', '--target', 'es2023', '--module', 'nodenext',
        '--moduleResolution', 'nodenext', '--lib', 'es2023,dom', '--skipLibCheck', '--outDir', dir, `${dir}/client.ts`];
      const compiled = await run(process.execPath, tsc, { cwd: dir }).then(() => '', (err: { stdout?: string; message?: string }) => err.stdout || (err.message ?? 'tsc failed'));
      expect(compiled, 'tsc --strict on the generated client').toBe('');

      const client = (await import(pathToFileURL(`${dir}/client.js`).href)) as { runContract(baseUrl: string, token?: string): Promise<Exchange[]> };
      // AUTH_MODE=none (this app), then AUTH_MODE=token: the same client with a bearer token.
      const exchanges = await client.runContract(t.baseUrl);
      const tokenApp = await startTestApp({ AUTH_MODE: 'token', ALERT_TARGETS_ALLOW_PRIVATE: '1' });
      try {
        const store = new ApiTokenStore(tokenApp.app.get(DataSource).getRepository(ApiTokenEntity));
        const { token } = await store.create({ email: 'contract@example.com' });
        exchanges.push(...(await client.runContract(tokenApp.baseUrl, token)));
      } finally {
        await tokenApp.close();
      }

      const byRoute = new Map(operationsOf(doc).map((o) => [`${o.method.toUpperCase()} ${o.path}`, o.op]));
      const called = new Set(exchanges.map((e) => `${e.method} ${e.path}`));
      const missing = [...byRoute].filter(([route, op]) => !isStream(op) && !called.has(route)).map(([route]) => route);
      expect(missing, 'non-stream operations the typed client does not call').toEqual([]);

      const schemas = (doc.components?.schemas ?? {}) as Record<string, JsonSchema>;
      for (const e of exchanges) {
        const route = `${e.method} ${e.path}`;
        const response = (byRoute.get(route)?.responses ?? {})[String(e.status)];
        expect(response, `${route} answered an undocumented ${e.status}: ${e.body}`).toBeDefined();
        const media = response?.content?.['application/json'];
        if (e.contentType.startsWith('application/json')) {
          expect(media?.schema, `${route} ${e.status}: JSON without a documented schema`).toBeDefined();
          expect(schemaErrors(media?.schema as JsonSchema, JSON.parse(e.body), schemas), `${route} ${e.status}`).toEqual([]);
        } else if (e.body !== '') {
          const documented = Object.keys(response?.content ?? {});
          expect(documented.some((type) => e.contentType.startsWith(type)), `${route} ${e.status}: ${e.contentType} not in ${documented.join()}`).toBe(true);
        }
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
