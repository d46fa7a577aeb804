import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** A recognisable prefix, so a token pasted into a log, a chat or a repository is found by a scanner. */
export const TOKEN_PREFIX = 'amt_';
/** Stream tickets have their own prefix: one is never mistaken for the other. */
export const TICKET_PREFIX = 'amk_';

const TOKEN_SHAPE = /^am[tk]_[A-Za-z0-9_-]{43}$/;

/** 256 random bits, base64url, after the prefix. */
export function newSecret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/**
 * The SHA-256 of a short-lived secret (a stream ticket, 60 s, single use): the key it is kept
 * under in memory or Redis, so neither holds the ticket itself.
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/**
 * The part of a token stored in clear to find its row: the first 12 characters after the prefix
 * (72 of its 256 bits; the other 184 stay unguessable). Everything else about it is kept only
 * as a salted scrypt hash.
 */
export function lookupOf(token: string): string {
  return token.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + LOOKUP_CHARS);
}
const LOOKUP_CHARS = 12;

/** scrypt's cost as OWASP suggests for it (N = 2^15, r = 8, p = 1): about 50-100 ms of one libuv thread. */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const KEY_BYTES = 32;

/** A fresh 16-byte salt, hex. */
export function newSalt(): string {
  return randomBytes(16).toString('hex');
}

/** scrypt(token, salt), hex; on libuv's thread pool, never the event loop. */
export function scryptHash(token: string, saltHex: string): Promise<string> {
  return new Promise((resolve, reject) => {
    scrypt(token, Buffer.from(saltHex, 'hex'), KEY_BYTES, SCRYPT, (error, key) => (error ? reject(error) : resolve(key.toString('hex'))));
  });
}

/** Whether a presented value can be a secret of ours at all (no database lookup for junk). */
export function hasSecretShape(value: string, prefix: string): boolean {
  return value.startsWith(prefix) && TOKEN_SHAPE.test(value);
}

/** Compares two hex digests in constant time. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
