import { describe, expect, it } from 'vitest';
import { loadDemoEnv } from './demo-env.js';
import { EXCHANGE_NAMES } from '../market-model/exchanges.js';
import { toAppConfig, validateEnv } from './validate-env.js';

describe('demo environment', () => {
  it('points the service at the simulator with dummy keys, so all five exchanges report networks', () => {
    const env = loadDemoEnv({ SIM_PORT: '8099', DATABASE_URL: 'postgres://u@h/db', BINANCE_API_KEY: 'real', BINANCE_API_SECRET: 'real' });
    const config = toAppConfig(validateEnv(env.serviceEnv));
    expect(config.marketData.simulatorUrl).toBe('http://127.0.0.1:8099');
    expect(config.database.kind).toBe('pglite');
    expect(Object.keys(config.marketData.credentials).sort()).toEqual(['binance', 'bybit', 'okx']);
    // An operator's real keys never go to the simulator.
    expect(config.marketData.credentials.binance?.apiKey).toBe('demo-key');
  });

  it('says which database it uses when DATABASE_URL is set, and nothing otherwise', () => {
    expect(loadDemoEnv({ DATABASE_URL: 'postgres://u@h/db' }).notices).toEqual([
      'demo: DATABASE_URL is set and not used: the demo always keeps its data in the embedded database (./data/pglite, DB_PATH); `npm start` uses DATABASE_URL',
    ]);
    expect(loadDemoEnv({}).notices).toEqual([]);
  });

  it('starts the simulator walking, with the demo networks, unless the operator says otherwise', () => {
    expect(loadDemoEnv({}).simulatorEnv).toMatchObject({ SIM_WALK: '1', SIM_DEMO: '1' });
    expect(loadDemoEnv({ SIM_DEMO: '0', SIM_WALK: '0' }).simulatorEnv).toMatchObject({ SIM_WALK: '0', SIM_DEMO: '0' });
  });
});

describe('demo environment: venues', () => {
  it('watches every venue of the registry unless the operator names some', () => {
    expect(toAppConfig(validateEnv(loadDemoEnv({}).serviceEnv)).marketData.exchanges).toEqual([...EXCHANGE_NAMES]);
    expect(toAppConfig(validateEnv(loadDemoEnv({ EXCHANGES: 'okx,gate' }).serviceEnv)).marketData.exchanges).toEqual(['okx', 'gate']);
  });
});
