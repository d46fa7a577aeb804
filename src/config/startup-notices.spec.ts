import { describe, expect, it } from 'vitest';
import { startupNotices } from './startup-notices.js';
import { toAppConfig, validateEnv } from './validate-env.js';

const notices = (env: Record<string, string>): string[] => startupNotices(toAppConfig(validateEnv(env)));

describe('start-up notices', () => {
  it('warns once, naming ENABLED_WEBSOCKET, when the simulator URL is set without the feeds', () => {
    const [line, ...rest] = notices({ MARKET_SIMULATOR_URL: 'http://127.0.0.1:8090' });
    expect(rest).toEqual([]);
    expect(line).toContain('MARKET_SIMULATOR_URL is set but ENABLED_WEBSOCKET is off');
    expect(line).toContain('set ENABLED_WEBSOCKET=1');
  });

  it('with the feeds off, one line says no venue is watched and how to start them', () => {
    const offs: Record<string, string>[] = [{}, { ENABLED_WEBSOCKET: '0' }, { ENABLED_WEBSOCKET: 'false' }];
    for (const off of offs) {
      expect(notices(off)).toEqual([
        'ENABLED_WEBSOCKET is off: no venue is watched, /health/market says feeds "off" and the streams stay empty; ' +
          'set ENABLED_WEBSOCKET=1 to start the live feeds',
      ]);
    }
  });

  it('warns once when the service is open beyond loopback by ALLOW_OPEN_ACCESS=1', () => {
    const [line, ...rest] = notices({ HOST: '0.0.0.0', ALLOW_OPEN_ACCESS: '1', ENABLED_WEBSOCKET: '1' });
    expect(rest).toEqual([]);
    expect(line).toContain('ALLOW_OPEN_ACCESS=1: listening on 0.0.0.0 with AUTH_MODE=none');
    expect(line).toContain('set AUTH_MODE=token');
  });

  it('no open-access warning on loopback or in token mode', () => {
    const on = { ENABLED_WEBSOCKET: '1' };
    expect(notices({ ...on, ALLOW_OPEN_ACCESS: '1' })).toEqual([]);
    expect(notices({ ...on, HOST: '0.0.0.0', AUTH_MODE: 'token' })).toEqual([]);
    expect(notices({ ...on, HOST: '0.0.0.0', AUTH_MODE: 'token', ALLOW_OPEN_ACCESS: '1' })).toEqual([]);
  });

  it('says nothing when the settings work together, nor on an API instance (the ingest process watches)', () => {
    expect(notices({ MARKET_SIMULATOR_URL: 'http://127.0.0.1:8090', ENABLED_WEBSOCKET: '1' })).toEqual([]);
    expect(notices({ ENABLED_WEBSOCKET: '1' })).toEqual([]);
    expect(notices({ ROLE: 'api', REDIS_URL: 'redis://127.0.0.1:6379' })).toEqual([]);
  });
});
