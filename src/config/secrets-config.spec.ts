import { describe, expect, it } from 'vitest';
import { defaultKeyFile, parseSecretsKey, parseSecretsKeyList } from './secrets-config.js';
import { InvalidEnvironmentError, toAppConfig, validateEnv } from './validate-env.js';

const bytes = Buffer.from(Array.from({ length: 32 }, (_, i) => i));

describe('SECRETS_KEY parsing (rules: sealed-secrets)', () => {
  it('reads 64 hex digits, base64 and base64url of 32 bytes', () => {
    expect(parseSecretsKey('SECRETS_KEY', bytes.toString('hex'))).toEqual(bytes);
    expect(parseSecretsKey('SECRETS_KEY', bytes.toString('hex').toUpperCase())).toEqual(bytes);
    expect(parseSecretsKey('SECRETS_KEY', bytes.toString('base64'))).toEqual(bytes);
    expect(parseSecretsKey('SECRETS_KEY', bytes.toString('base64url'))).toEqual(bytes);
    expect(parseSecretsKey('SECRETS_KEY', `${bytes.toString('hex')}\n`)).toEqual(bytes);
  });

  it.each([
    ['31 bytes in hex', bytes.subarray(0, 31).toString('hex')],
    ['33 bytes in hex', Buffer.concat([bytes, Buffer.from([1])]).toString('hex')],
    ['24 bytes in base64', bytes.subarray(0, 24).toString('base64')],
    ['48 bytes in base64', Buffer.concat([bytes, bytes.subarray(0, 16)]).toString('base64')],
    ['a passphrase', 'correct horse battery staple'],
  ])('refuses %s, naming the variable and not the value', (_, value) => {
    expect(() => parseSecretsKey('SECRETS_KEY', value)).toThrow(/^SECRETS_KEY must be 32 bytes/);
    try {
      parseSecretsKey('SECRETS_KEY', value);
    } catch (err) {
      expect(String(err)).not.toContain(value);
    }
  });

  it('is validated with the environment: a bad key stops the start naming the variable', () => {
    expect(() => validateEnv({ SECRETS_KEY: 'abcd' })).toThrow(InvalidEnvironmentError);
    expect(() => validateEnv({ SECRETS_KEY: 'abcd' })).toThrow(/SECRETS_KEY must be 32 bytes/);
    expect(() => validateEnv({ SECRETS_KEY_PREVIOUS: `${bytes.toString('hex')},nope` })).toThrow(/SECRETS_KEY_PREVIOUS must be/);
    const config = toAppConfig(validateEnv({ SECRETS_KEY: bytes.toString('hex'), SECRETS_KEY_PREVIOUS: `${bytes.toString('base64')}, ${bytes.toString('hex')}` }));
    expect(config.secrets.key).toEqual(bytes);
    expect(config.secrets.previous).toEqual([bytes, bytes]);
    expect(parseSecretsKeyList('SECRETS_KEY_PREVIOUS', '')).toEqual([]);
  });

  it('puts the key file beside the embedded folder, none for :memory:, ./data on PostgreSQL', () => {
    expect(toAppConfig(validateEnv({})).secrets.keyFile).toBe('data/secrets.key');
    expect(defaultKeyFile('/srv/am/pglite')).toBe('/srv/am/secrets.key');
    expect(defaultKeyFile(':memory:')).toBeNull();
    expect(toAppConfig(validateEnv({ DATABASE_URL: 'postgres://u@h/db' })).secrets.keyFile).toBe('data/secrets.key');
    expect(toAppConfig(validateEnv({ SECRETS_KEY_FILE: '/run/keys/am.key' })).secrets.keyFile).toBe('/run/keys/am.key');
  });
});
