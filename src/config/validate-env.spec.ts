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
  ])('%s=%s is refused with a message naming it', (name, value, message) => {
    expect(() => validateEnv({ [name]: value })).toThrow(InvalidEnvironmentError);
    expect(() => validateEnv({ [name]: value })).toThrow(message);
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
