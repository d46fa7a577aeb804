import { describe, expect, it } from 'vitest';
import { assertSafeExposure, isLoopbackHost } from './exposure.js';
import { toAppConfig, validateEnv } from './validate-env.js';

const configOf = (env: Record<string, string | undefined>) => toAppConfig(validateEnv(env));

describe('exposure: HOST, AUTH_MODE and ALLOW_OPEN_ACCESS', () => {
  it('HOST unset listens on 127.0.0.1', () => {
    expect(configOf({}).host).toBe('127.0.0.1');
  });

  it.each(['127.0.0.1', '127.8.9.10', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', 'localhost', 'LOCALHOST'])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  it.each(['0.0.0.0', '::', '10.213.0.1', '192.168.1.5', '128.0.0.1', '::2', 'example.com', 'localhost.example.com'])('%s is not loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });

  it('loopback with AUTH_MODE=none starts without an opt-in', () => {
    expect(() => assertSafeExposure(configOf({}))).not.toThrow();
    expect(() => assertSafeExposure(configOf({ HOST: '::1' }))).not.toThrow();
  });

  it.each(['0.0.0.0', '::', '192.168.1.5'])('HOST=%s with AUTH_MODE=none and no opt-in is refused in one line naming both ways out', (host) => {
    const run = () => assertSafeExposure(configOf({ HOST: host }));
    expect(run).toThrow(`HOST=${host}`);
    expect(run).toThrow('AUTH_MODE=token');
    expect(run).toThrow('ALLOW_OPEN_ACCESS=1');
    expect(run).toThrow(/^[^\n]*$/);
    expect(() => assertSafeExposure(configOf({ HOST: host, ALLOW_OPEN_ACCESS: '0' }))).toThrow('ALLOW_OPEN_ACCESS=1');
  });

  it.each([{ ALLOW_OPEN_ACCESS: '1' }, { ALLOW_OPEN_ACCESS: 'true' }, { AUTH_MODE: 'token' }])('HOST=0.0.0.0 with %j starts', (env) => {
    expect(() => assertSafeExposure(configOf({ HOST: '0.0.0.0', ...env }))).not.toThrow();
  });

  it('ALLOW_OPEN_ACCESS is validated', () => {
    expect(() => validateEnv({ ALLOW_OPEN_ACCESS: 'yes' })).toThrow('ALLOW_OPEN_ACCESS must be 0, 1, true or false');
  });
});
