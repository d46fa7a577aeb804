import { describe, expect, it } from 'vitest';
import { InvalidEnvironmentError, toAppConfig, validateEnv } from './validate-env.js';

describe('environment validation', () => {
  it('applies the defaults', () => {
    const config = toAppConfig(validateEnv({}));
    expect(config.port).toBe(3000);
    expect(config.corsOrigins).toBe('*');
    expect(config.trustProxy).toBe(false);
    expect(config.database).toEqual({ kind: 'pglite', path: './data/pglite' });
  });

  it('selects PostgreSQL when DATABASE_URL is set', () => {
    const config = toAppConfig(validateEnv({ DATABASE_URL: 'postgres://u@h:5432/db' }));
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u@h:5432/db' });
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
    ['TRUST_PROXY', 'yes', 'TRUST_PROXY must be 0, 1, true or false'],
    ['CORS_ORIGINS', 'a, b', 'CORS_ORIGINS must be * or a comma-separated list of origins'],
    ['HISTORY_INTERVAL_MS', '999', 'HISTORY_INTERVAL_MS must be 0 (recorder off) or an integer from 1000 to 3600000'],
    ['HISTORY_MIN_SPREAD_PERCENT', 'x', 'HISTORY_MIN_SPREAD_PERCENT must be a number from -100 to 100'],
    ['HISTORY_RETENTION_DAYS', '0', 'HISTORY_RETENTION_DAYS must be an integer from 1 to 3650'],
  ])('%s=%s is refused with a message naming it', (name, value, message) => {
    expect(() => validateEnv({ [name]: value })).toThrow(InvalidEnvironmentError);
    expect(() => validateEnv({ [name]: value })).toThrow(message);
  });

  it('HISTORY_INTERVAL_MS=0 switches the history recorder off; stats keep the D8 spacing', () => {
    expect(toAppConfig(validateEnv({})).history).toEqual({ intervalMs: 10_000, recorderEnabled: true, minSpreadPercent: 0, retentionDays: 90 });
    expect(toAppConfig(validateEnv({ HISTORY_INTERVAL_MS: '0' })).history).toMatchObject({ intervalMs: 10_000, recorderEnabled: false });
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
