import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hasSecretShape, lookupOf, newSalt, newSecret, scryptHash, TOKEN_PREFIX } from './token-secret.js';

describe('token secrets: kept as a lookup prefix and a salted scrypt hash', () => {
  it('a token is the prefix and 256 random bits; its lookup is the 12 characters after the prefix', () => {
    const token = newSecret(TOKEN_PREFIX);
    expect(hasSecretShape(token, TOKEN_PREFIX)).toBe(true);
    expect(Buffer.from(token.slice(TOKEN_PREFIX.length), 'base64url')).toHaveLength(32);
    expect(lookupOf(token)).toBe(token.slice(4, 16));
    expect(lookupOf(token)).toHaveLength(12);
  });

  it('the same token under two salts hashes to two values, neither its SHA-256; the same salt gives the same hash', async () => {
    const token = `${TOKEN_PREFIX}${'A'.repeat(43)}`;
    const [a, b] = [newSalt(), newSalt()];
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(a).not.toBe(b);
    const [ha, hb, ha2] = await Promise.all([scryptHash(token, a), scryptHash(token, b), scryptHash(token, a)]);
    expect(ha).toMatch(/^[0-9a-f]{64}$/);
    expect(ha).not.toBe(hb);
    expect(ha2).toBe(ha);
    expect(ha).not.toBe(createHash('sha256').update(token).digest('hex'));
    expect(await scryptHash(`${TOKEN_PREFIX}${'A'.repeat(42)}B`, a)).not.toBe(ha);
  });

  it('hashes off the event loop: a timer set before the hash fires before it resolves', async () => {
    const order: string[] = [];
    const timer = new Promise<void>((resolve) => setImmediate(() => { order.push('loop turned'); resolve(); }));
    const hash = scryptHash(newSecret(TOKEN_PREFIX), newSalt()).then(() => order.push('hashed'));
    await Promise.all([timer, hash]);
    expect(order).toEqual(['loop turned', 'hashed']);
  });
});
