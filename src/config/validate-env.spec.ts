import { describe, expect, it } from 'vitest';
import { InvalidEnvironmentError, toAppConfig, validateEnv } from './validate-env.js';

describe('environment validation', () => {
  it('applies the defaults', () => {
    const config = toAppConfig(validateEnv({}));
    expect(config.port).toBe(3000);
    expect(config.corsOrigins).toBe('*');
    expect(config.trustProxy).toBe(false);
    expect(config.database).toEqual({ kind: 'pglite', path: './data/pglite' });
    expect(config.realtime.debounceMs).toBe(200);
  });

  it('ARBITRAGE_DEBOUNCE_MS sets the opportunity debounce', () => {
    expect(toAppConfig(validateEnv({ ARBITRAGE_DEBOUNCE_MS: '50' })).realtime.debounceMs).toBe(50);
  });

  it('selects PostgreSQL when DATABASE_URL is set', () => {
    const config = toAppConfig(validateEnv({ DATABASE_URL: 'postgres://u@h:5432/db' }));
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u@h:5432/db', connectWaitMs: 15_000 });
  });

  it('parses a CORS origin list', () => {
    const config = toAppConfig(validateEnv({ CORS_ORIGINS: 'https://a.example,https://b.example' }));
    expect(config.corsOrigins).toEqual(['https://a.example', 'https://b.example']);
  });

  it.each([
    ['PORT', 'abc', 'PORT must be an integer from 1 to 65535'],
    ['PORT', '0', 'PORT must be an integer from 1 to 65535'],
    ['PORT', '70000', 'PORT must be an integer from 1 to 65535'],
    ['LOG_LEVEL', 'loud', 'LOG_LEVEL must be one of'],
    ['DATABASE_URL', 'mysql://x', 'DATABASE_URL must be a postgres:// URL'],
    ['TRUST_PROXY', 'yes', 'TRUST_PROXY must be 0, false, a hop count from 1 to 10'],
    ['SHUTDOWN_TIMEOUT_MS', '50', 'SHUTDOWN_TIMEOUT_MS must be an integer from 100 to 600000'],
    ['LOG_FORMAT', 'xml', 'LOG_FORMAT must be one of auto, json, pretty'],
    ['CORS_ORIGINS', 'a, b', 'CORS_ORIGINS must be * or a comma-separated list of origins'],
    ['HISTORY_INTERVAL_MS', '999', 'HISTORY_INTERVAL_MS must be 0 (recorder off) or an integer from 1000 to 3600000'],
    ['HISTORY_MIN_SPREAD_PERCENT', 'x', 'HISTORY_MIN_SPREAD_PERCENT must be a number from -100 to 100'],
    ['HISTORY_RETENTION_DAYS', '0', 'HISTORY_RETENTION_DAYS must be an integer from 1 to 3650'],
    ['FUNDING_RETENTION_DAYS', '29', 'FUNDING_RETENTION_DAYS must be an integer from 30 to 3650'],
    ['FUNDING_RETENTION_DAYS', 'ninety', 'FUNDING_RETENTION_DAYS must be an integer from 30 to 3650'],
    ['ROLE', 'worker', 'ROLE must be one of all, ingest, api'],
    ['REDIS_URL', 'http://x', 'REDIS_URL must be a redis:// URL'],
    ['ARBITRAGE_DEBOUNCE_MS', '5', 'ARBITRAGE_DEBOUNCE_MS must be an integer from 10 to 10000'],
    ['ARBITRAGE_DEBOUNCE_MS', '0.5', 'ARBITRAGE_DEBOUNCE_MS must be an integer from 10 to 10000'],
    ['ARBITRAGE_DEBOUNCE_MS', '10001', 'ARBITRAGE_DEBOUNCE_MS must be an integer from 10 to 10000'],
    ['REDIS_KEY_PREFIX', 'a b', 'REDIS_KEY_PREFIX must be 1 to 64 letters, digits or :_.-'],
  ])('%s=%s is refused with a message naming it', (name, value, message) => {
    expect(() => validateEnv({ [name]: value })).toThrow(InvalidEnvironmentError);
    expect(() => validateEnv({ [name]: value })).toThrow(message);
  });

  it('HISTORY_INTERVAL_MS=0 switches the history recorder off; stats keep the `recorders` rule spacing', () => {
    expect(toAppConfig(validateEnv({})).history).toEqual({ intervalMs: 10_000, recorderEnabled: true, minSpreadPercent: 0, retentionDays: 90 });
    expect(toAppConfig(validateEnv({ HISTORY_INTERVAL_MS: '0' })).history).toMatchObject({ intervalMs: 10_000, recorderEnabled: false });
  });

  it('read-only API credentials are optional and reach the market-data config per exchange', () => {
    expect(toAppConfig(validateEnv({})).marketData.credentials).toEqual({});
    const config = toAppConfig(validateEnv({
      BINANCE_API_KEY: 'bk', BINANCE_API_SECRET: 'bs', OKX_API_KEY: 'ok', OKX_API_SECRET: 'os', OKX_API_PASSWORD: 'op',
    }));
    expect(config.marketData.credentials).toEqual({
      binance: { apiKey: 'bk', secret: 'bs' },
      okx: { apiKey: 'ok', secret: 'os', password: 'op' },
    });
  });

  it.each([
    [{ BINANCE_API_KEY: 'k' }, ['BINANCE_API_SECRET must be set too: binance API credentials need BINANCE_API_KEY and BINANCE_API_SECRET']],
    [{ BINANCE_API_SECRET: 's' }, ['BINANCE_API_KEY must be set too: binance API credentials need BINANCE_API_KEY and BINANCE_API_SECRET']],
    [{ BYBIT_API_KEY: 'k', BYBIT_API_SECRET: ' ' }, ['BYBIT_API_SECRET must be set too: bybit API credentials need BYBIT_API_KEY and BYBIT_API_SECRET']],
    [{ OKX_API_KEY: 'k', OKX_API_SECRET: 's' }, ['OKX_API_PASSWORD must be set too: okx API credentials need OKX_API_KEY, OKX_API_SECRET and OKX_API_PASSWORD']],
    [{ OKX_API_KEY: 'k' }, [
      'OKX_API_SECRET must be set too: okx API credentials need OKX_API_KEY, OKX_API_SECRET and OKX_API_PASSWORD',
      'OKX_API_PASSWORD must be set too: okx API credentials need OKX_API_KEY, OKX_API_SECRET and OKX_API_PASSWORD',
    ]],
  ])('credentials %j without their partners stop start-up, naming the missing variable', (env, problems) => {
    try {
      validateEnv(env);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(InvalidEnvironmentError);
      expect((err as InvalidEnvironmentError).problems).toEqual(problems);
    }
  });

  it('a refused credential never shows its value', () => {
    expect(() => validateEnv({ OKX_API_KEY: 'k', OKX_API_SECRET: 'very-secret-value' })).toThrow(/^(?!.*very-secret-value).*$/s);
  });

  it('ROLE=all is the default and needs no Redis', () => {
    expect(toAppConfig(validateEnv({})).scaleOut).toEqual({ role: 'all', redis: null });
  });

  it.each(['ingest', 'api'])('ROLE=%s without REDIS_URL stops start-up naming REDIS_URL', (role) => {
    expect(() => validateEnv({ ROLE: role })).toThrow(`REDIS_URL is required when ROLE is ${role}`);
  });

  it('alert targets: public and https only by default; ALERT_TARGETS_ALLOW_PRIVATE=1 allows an http Telegram API base (rules: outbound-targets)', () => {
    expect(toAppConfig(validateEnv({})).alerts.allowPrivateTargets).toBe(false);
    expect(() => validateEnv({ TELEGRAM_API_URL: 'http://127.0.0.1:8081' })).toThrow(
      'TELEGRAM_API_URL must be an https URL (http only with ALERT_TARGETS_ALLOW_PRIVATE=1)',
    );
    const lan = toAppConfig(validateEnv({ TELEGRAM_API_URL: 'http://127.0.0.1:8081', ALERT_TARGETS_ALLOW_PRIVATE: 'true' }));
    expect(lan.alerts).toMatchObject({ telegramApiUrl: 'http://127.0.0.1:8081', allowPrivateTargets: true });
    expect(() => validateEnv({ ALERT_TARGETS_ALLOW_PRIVATE: 'yes' })).toThrow('ALERT_TARGETS_ALLOW_PRIVATE must be 0, 1, true or false');
  });

  it('ROLE=api with REDIS_URL carries the URL and key prefix', () => {
    const config = toAppConfig(validateEnv({ ROLE: 'api', REDIS_URL: 'redis://127.0.0.1:6379/2', REDIS_KEY_PREFIX: 't1:' }));
    expect(config.scaleOut).toEqual({ role: 'api', redis: { url: 'redis://127.0.0.1:6379/2', keyPrefix: 't1:' } });
  });

  it('names every bad variable at once', () => {
    try {
      validateEnv({ PORT: 'abc', LOG_LEVEL: 'loud' });
      expect.unreachable();
    } catch (err) {
      expect((err as InvalidEnvironmentError).problems).toHaveLength(2);
    }
  });
});
