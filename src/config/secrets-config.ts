import path from 'node:path';

/** Where the master key of sealed secrets comes from (rules: sealed-secrets). */
export interface SecretsConfig {
  /** SECRETS_KEY: seals new values and opens its own; null: the key file holds the key. */
  key: Buffer | null;
  /** SECRETS_KEY_PREVIOUS: keys that still open values during a rotation, never used to seal. */
  previous: Buffer[];
  /**
   * The key file used when SECRETS_KEY is unset, created at first start; null only with the
   * in-memory database and no SECRETS_KEY_FILE, where a key made at start dies with the data.
   */
  keyFile: string | null;
}

export const SECRETS_KEY_BYTES = 32;

/**
 * A 256-bit key written as 64 hex digits or as base64 (or base64url) of 32 bytes. Anything else
 * is refused naming the variable, never echoing the value: a near-miss is still a secret.
 */
export function parseSecretsKey(name: string, value: string): Buffer {
  const text = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const bytes = Buffer.from(text, 'base64');
    if (bytes.length === SECRETS_KEY_BYTES) return bytes;
  }
  throw new Error(`${name} must be 32 bytes written as 64 hex digits or as base64 (openssl rand -hex 32)`);
}

/** SECRETS_KEY_PREVIOUS: a comma-separated list of keys, each parsed as SECRETS_KEY is. */
export function parseSecretsKeyList(name: string, value: string): Buffer[] {
  return value.split(',').map((part) => part.trim()).filter((part) => part !== '').map((part) => parseSecretsKey(name, part));
}

/**
 * The key file's default sits beside the embedded database's folder (`./data/secrets.key` for
 * `./data/pglite`), not inside it: a copy of the database folder alone then carries no key.
 * On PostgreSQL the same default, relative to the working directory.
 */
export function defaultKeyFile(dbPath: string | null): string | null {
  if (dbPath === ':memory:') return null;
  return path.join(path.dirname(dbPath ?? './data/pglite'), 'secrets.key');
}
