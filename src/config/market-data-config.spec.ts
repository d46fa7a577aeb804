import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { InvalidEnvironmentError, toAppConfig, validateEnv } from './validate-env.js';
import { EXCHANGE_NAMES } from '../market-model/exchanges.js';

describe('market-data config: INGEST_WORKERS', () => {
  it('defaults to one worker per spare core, at least one', () => {
    expect(toAppConfig(validateEnv({})).marketData.ingestWorkers).toBe(Math.max(1, availableParallelism() - 1));
  });

  it('takes 1 to 5 workers', () => {
    expect(toAppConfig(validateEnv({ INGEST_WORKERS: '3' })).marketData.ingestWorkers).toBe(3);
  });

  it.each(['0', '6', '1.5', 'two'])('INGEST_WORKERS=%s is refused with a message naming it', (value) => {
    expect(() => validateEnv({ INGEST_WORKERS: value })).toThrow(InvalidEnvironmentError);
    expect(() => validateEnv({ INGEST_WORKERS: value })).toThrow('INGEST_WORKERS must be an integer from 1 to 5');
  });

  it('INGEST_WORKER_HEAP_MB defaults to 224 and is bounded', () => {
    expect(toAppConfig(validateEnv({})).marketData.ingestWorkerHeapMb).toBe(224);
    expect(toAppConfig(validateEnv({ INGEST_WORKER_HEAP_MB: '512' })).marketData.ingestWorkerHeapMb).toBe(512);
    expect(() => validateEnv({ INGEST_WORKER_HEAP_MB: '64' })).toThrow('INGEST_WORKER_HEAP_MB must be an integer from 128 to 16384');
  });
});

describe('market-data config: order-book depth', () => {
  it('defaults: on, 400 books, 60 s grace', () => {
    expect(toAppConfig(validateEnv({})).marketData.depth).toEqual({ enabled: true, maxBooks: 400, graceMs: 60_000 });
  });

  it('takes the three variables', () => {
    const depth = toAppConfig(validateEnv({ DEPTH_ENABLED: '0', DEPTH_MAX_BOOKS: '10', DEPTH_GRACE_MS: '500' })).marketData.depth;
    expect(depth).toEqual({ enabled: false, maxBooks: 10, graceMs: 500 });
  });

  it.each([
    ['DEPTH_ENABLED', 'yes', 'DEPTH_ENABLED must be 0, 1, true or false'],
    ['DEPTH_MAX_BOOKS', '1', 'DEPTH_MAX_BOOKS must be an integer from 2 to 2000'],
    ['DEPTH_MAX_BOOKS', '2001', 'DEPTH_MAX_BOOKS must be an integer from 2 to 2000'],
    ['DEPTH_GRACE_MS', '-1', 'DEPTH_GRACE_MS must be an integer from 0 to 3600000'],
    ['DEPTH_GRACE_MS', '1.5', 'DEPTH_GRACE_MS must be an integer from 0 to 3600000'],
  ])('%s=%s is refused with a message naming it', (name, value, message) => {
    expect(() => validateEnv({ [name]: value })).toThrow(message);
  });

  it('reads SYMBOL_DENYLIST and refuses a bad item by name', () => {
    expect(toAppConfig(validateEnv({})).marketData.denylist).toEqual([]);
    expect(toAppConfig(validateEnv({ SYMBOL_DENYLIST: 'pepe,gate:FLOKI-USDT' })).marketData.denylist)
      .toEqual([{ symbol: 'PEPE' }, { exchange: 'gate', symbol: 'FLOKI-USDT' }]);
    expect(() => validateEnv({ SYMBOL_DENYLIST: 'PEPE,kraken:BTC' })).toThrow('SYMBOL_DENYLIST: "kraken:BTC" names no known exchange');
  });
});

describe('market-data config: EXCHANGES', () => {
  const exchanges = (env: Record<string, string>): readonly string[] => toAppConfig(validateEnv(env)).marketData.exchanges;

  it('unset: the venues watched by default (the five of the API contract)', () => {
    expect(exchanges({})).toEqual(['binance', 'bybit', 'okx', 'gate', 'bitget']);
  });

  it('all (any case): every venue of the registry, in its order', () => {
    expect(exchanges({ EXCHANGES: 'all' })).toEqual([...EXCHANGE_NAMES]);
    expect(exchanges({ EXCHANGES: ' ALL ' })).toEqual([...EXCHANGE_NAMES]);
  });

  it('a list: those venues, each once, any case', () => {
    expect(exchanges({ EXCHANGES: 'OKX, gate,okx' })).toEqual(['okx', 'gate']);
  });

  it.each(['kraken', 'all,okx', 'binance;okx'])('EXCHANGES=%j is refused naming the choices', (value) => {
    expect(() => validateEnv({ EXCHANGES: value })).toThrow(`EXCHANGES must be all or a comma list of ${EXCHANGE_NAMES.join(', ')}`);
  });
});
