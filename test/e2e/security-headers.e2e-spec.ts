import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../utils/test-app.js';

/**
 * rules: exposure. Served as it is reached: over plain http (a LAN or VPS address the browser does
 * not treat as secure) an answer that says "upgrade to https" blanks the dashboard and Swagger UI,
 * so HSTS and `upgrade-insecure-requests` go only on requests that came over https, here as a
 * trusted proxy reports it. The test connects from 127.0.0.1, playing the proxy.
 */
describe('security headers follow the protocol the request came over (rules: exposure)', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const get = (app: TestApp, path: string, forwardedProto?: string) => {
    const req = request(app.baseUrl).get(path);
    return forwardedProto === undefined ? req : req.set('X-Forwarded-Proto', forwardedProto);
  };
  const upgrades = (res: request.Response): boolean => String(res.headers['content-security-policy']).includes('upgrade-insecure-requests');
  const hsts = (res: request.Response): unknown => res.headers['strict-transport-security'];

  /** The headers that stay on every answer, whatever the protocol. */
  const expectOtherHeaders = (res: request.Response): void => {
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("script-src 'self' 'unsafe-inline'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
  };

  it('over http with no trusted proxy: neither header, on the API and on Swagger UI, whatever X-Forwarded-Proto says', async () => {
    t = await startTestApp({ TRUST_PROXY: '0' });
    for (const path of ['/health', '/docs/']) {
      for (const proto of [undefined, 'https']) {
        const res = await get(t, path, proto).expect(200);
        expect(upgrades(res)).toBe(false);
        expect(hsts(res)).toBeUndefined();
        expectOtherHeaders(res);
      }
    }
  });

  it('a trusted proxy forwarding https: both headers; the same proxy forwarding http, or nothing: neither', async () => {
    t = await startTestApp({ TRUST_PROXY: 'loopback' });
    for (const path of ['/health', '/docs/']) {
      const secure = await get(t, path, 'https').expect(200);
      expect(upgrades(secure)).toBe(true);
      expect(hsts(secure)).toMatch(/^max-age=\d+; includeSubDomains$/);
      expectOtherHeaders(secure);
      for (const proto of [undefined, 'http']) {
        const plain = await get(t, path, proto).expect(200);
        expect(upgrades(plain)).toBe(false);
        expect(hsts(plain)).toBeUndefined();
        expectOtherHeaders(plain);
      }
    }
  });

  it('X-Forwarded-Proto from a socket that is not a listed proxy is ignored', async () => {
    t = await startTestApp({ TRUST_PROXY: '10.0.0.1' });
    const res = await get(t, '/health', 'https').expect(200);
    expect(upgrades(res)).toBe(false);
    expect(hsts(res)).toBeUndefined();
    expectOtherHeaders(res);
  });
});
