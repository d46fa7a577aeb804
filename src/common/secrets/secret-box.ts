import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { SECRETS_KEY_BYTES } from '../../config/secrets-config.js';

/**
 * Sealed secrets (rules: sealed-secrets): AES-256-GCM, one random 96-bit nonce per seal, the
 * 128-bit tag checked on open. A sealed value reads `v1:<keyId>:<nonce>:<ciphertext+tag>`
 * (base64url); the `v1:<keyId>` head is authenticated too, so a value moved to another key id
 * fails like a tampered one. Alert channel secrets use it today, exchange API keys later.
 */
const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const SEALED = /^v1:([0-9a-f]{8}):([A-Za-z0-9_-]{16}):([A-Za-z0-9_-]{22,})$/;

/** Opening failed: malformed, tampered, or sealed with a key this keyring lacks. Never carries the value. */
export class SecretOpenError extends Error {
  constructor(
    message: string,
    readonly keyId: string | null,
  ) {
    super(message);
    this.name = 'SecretOpenError';
  }
}

/**
 * A key's public name: 8 hex digits of a hash of the key, enough to tell keys apart in a log
 * line or a sealed value, far too few to learn anything about the key.
 */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update('arbitrage-monitor sealed-secrets key id\0').update(key).digest('hex').slice(0, 8);
}

/** The key id a sealed value names, or null when the text is not a sealed value. */
export function sealedKeyId(sealed: string): string | null {
  return SEALED.exec(sealed)?.[1] ?? null;
}

export function isSealed(text: string): boolean {
  return SEALED.test(text);
}

/** Seals with the current key; opens with the current key or any previous one (a rotation's window). */
export class Keyring {
  readonly currentId: string;
  private readonly keys = new Map<string, Buffer>();

  constructor(current: Buffer, previous: readonly Buffer[] = []) {
    for (const key of [current, ...previous]) {
      if (key.length !== SECRETS_KEY_BYTES) throw new Error(`a secrets key must be ${SECRETS_KEY_BYTES} bytes`);
      if (!this.keys.has(keyIdOf(key))) this.keys.set(keyIdOf(key), Buffer.from(key));
    }
    this.currentId = keyIdOf(current);
  }

  /** The ids of every key that opens values, the current one first. */
  get keyIds(): string[] {
    return [...this.keys.keys()];
  }

  has(keyId: string): boolean {
    return this.keys.has(keyId);
  }

  seal(plaintext: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key(this.currentId), nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(`${VERSION}:${this.currentId}`));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}:${this.currentId}:${nonce.toString('base64url')}:${body.toString('base64url')}`;
  }

  open(sealed: string): string {
    const parts = SEALED.exec(sealed);
    if (!parts) throw new SecretOpenError('not a sealed value', null);
    const [, keyId, nonceText, bodyText] = parts;
    if (!this.keys.has(keyId)) throw new SecretOpenError(`sealed with key ${keyId}, which is not among the keys given`, keyId);
    const body = Buffer.from(bodyText, 'base64url');
    if (body.length < TAG_BYTES) throw new SecretOpenError('not a sealed value', keyId);
    const decipher = createDecipheriv('aes-256-gcm', this.key(keyId), Buffer.from(nonceText, 'base64url'), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(`${VERSION}:${keyId}`));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretOpenError(`sealed value does not open with key ${keyId}: altered, or sealed by another key`, keyId);
    }
  }

  private key(keyId: string): Buffer {
    const key = this.keys.get(keyId);
    if (!key) throw new SecretOpenError(`no key ${keyId}`, keyId);
    return key;
  }
}
