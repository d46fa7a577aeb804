import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseSecretsKey, SECRETS_KEY_BYTES, type SecretsConfig } from '../../config/secrets-config.js';
import { Keyring } from './secret-box.js';

/** Where the current key came from: what the start-up line and the wrong-key line name (never the key). */
export type KeySource =
  | { kind: 'env' }
  | { kind: 'file'; path: string; created: boolean }
  | { kind: 'memory' };

export interface LoadedKeyring {
  keyring: Keyring;
  source: KeySource;
}

/** The key file exists but holds no key, or cannot be read or created: the start stops naming the file. */
export class SecretsKeyFileError extends Error {
  constructor(file: string, reason: string) {
    super(`SECRETS_KEY_FILE ${file} ${reason}`);
    this.name = 'SecretsKeyFileError';
  }
}

/**
 * The keyring from SECRETS_KEY, else from the key file (created at first start, mode 0600),
 * else, for the in-memory database only, a key made now that lives as long as the data.
 */
export function loadKeyring(config: SecretsConfig): LoadedKeyring {
  if (config.key) return { keyring: new Keyring(config.key, config.previous), source: { kind: 'env' } };
  if (config.keyFile === null) return { keyring: new Keyring(randomBytes(SECRETS_KEY_BYTES), config.previous), source: { kind: 'memory' } };
  const { key, created } = readOrCreateKeyFile(config.keyFile);
  return { keyring: new Keyring(key, config.previous), source: { kind: 'file', path: config.keyFile, created } };
}

/** How a line names the key in use, e.g. `the key file ./data/secrets.key`. */
export function describeSource(source: KeySource): string {
  switch (source.kind) {
    case 'env':
      return 'SECRETS_KEY';
    case 'file':
      return `the key file ${source.path}`;
    case 'memory':
      return 'a key made for the in-memory database';
  }
}

function readOrCreateKeyFile(file: string): { key: Buffer; created: boolean } {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    // `wx`: two processes starting at once never both write a key; the loser reads the winner's.
    fs.writeFileSync(file, `${randomBytes(SECRETS_KEY_BYTES).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    return { key: readKeyFile(file), created: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new SecretsKeyFileError(file, `cannot be created (${errCode(err)})`);
  }
  return { key: readKeyFile(file), created: false };
}

function readKeyFile(file: string): Buffer {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new SecretsKeyFileError(file, `cannot be read (${errCode(err)})`);
  }
  try {
    return parseSecretsKey('SECRETS_KEY_FILE', text);
  } catch {
    throw new SecretsKeyFileError(file, 'does not hold a key: 32 bytes as 64 hex digits or as base64');
  }
}

function errCode(err: unknown): string {
  return (err as NodeJS.ErrnoException | undefined)?.code ?? 'unknown';
}
