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

  it('says nothing when the settings work together', () => {
    expect(notices({})).toEqual([]);
    expect(notices({ MARKET_SIMULATOR_URL: 'http://127.0.0.1:8090', ENABLED_WEBSOCKET: '1' })).toEqual([]);
    expect(notices({ ENABLED_WEBSOCKET: '1' })).toEqual([]);
  });
});
