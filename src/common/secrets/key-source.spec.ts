import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadKeyring, SecretsKeyFileError } from './key-source.js';

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'am-keys-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the key file (rules: sealed-secrets)', () => {
  it('is created at first start, mode 0600, and read back the same at the next', () => {
    const file = path.join(tempDir(), 'data', 'secrets.key');
    const first = loadKeyring({ key: null, previous: [], keyFile: file });
    expect(first.source).toEqual({ kind: 'file', path: file, created: true });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const again = loadKeyring({ key: null, previous: [], keyFile: file });
    expect(again.source).toEqual({ kind: 'file', path: file, created: false });
    expect(again.keyring.open(first.keyring.seal('s'))).toBe('s');
  });

  it('SECRETS_KEY wins over the file, which is then not created', () => {
    const file = path.join(tempDir(), 'secrets.key');
    const loaded = loadKeyring({ key: Buffer.alloc(32, 7), previous: [], keyFile: file });
    expect(loaded.source).toEqual({ kind: 'env' });
    expect(fs.existsSync(file)).toBe(false);
  });

  it('a file that holds no key stops the start naming the file', () => {
    const file = path.join(tempDir(), 'secrets.key');
    fs.writeFileSync(file, 'not a key\n');
    expect(() => loadKeyring({ key: null, previous: [], keyFile: file })).toThrow(SecretsKeyFileError);
    expect(() => loadKeyring({ key: null, previous: [], keyFile: file })).toThrow(`SECRETS_KEY_FILE ${file} does not hold a key`);
  });
});
