import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isSealed, keyIdOf, Keyring, SecretOpenError, sealedKeyId } from './secret-box.js';

const key = (): Buffer => randomBytes(32);

describe('sealed secrets (rules: sealed-secrets)', () => {
  it('opens what it sealed, in the versioned format naming the key id', () => {
    const k = key();
    const ring = new Keyring(k);
    const sealed = ring.seal('123456789:AAE1x2y3z4 ünïcode');
    expect(sealed).toMatch(/^v1:[0-9a-f]{8}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/);
    expect(sealedKeyId(sealed)).toBe(keyIdOf(k));
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain('AAE1x2y3z4');
    expect(ring.open(sealed)).toBe('123456789:AAE1x2y3z4 ünïcode');
    expect(ring.open(ring.seal(''))).toBe('');
  });

  it('seals the same value differently each time (a fresh nonce per seal)', () => {
    const ring = new Keyring(key());
    const a = ring.seal('whsec_same');
    const b = ring.seal('whsec_same');
    expect(a).not.toBe(b);
    expect(a.split(':')[2]).not.toBe(b.split(':')[2]);
  });

  it('refuses a tampered ciphertext, nonce or key id instead of answering garbage', () => {
    const ring = new Keyring(key());
    const sealed = ring.seal('whsec_3f9a0c1d');
    const [v, id, nonce, body] = sealed.split(':');
    const bytes = Buffer.from(body, 'base64url');
    bytes[0] ^= 1;
    expect(() => ring.open([v, id, nonce, bytes.toString('base64url')].join(':'))).toThrow(SecretOpenError);
    const n = Buffer.from(nonce, 'base64url');
    n[0] ^= 1;
    expect(() => ring.open([v, id, n.toString('base64url'), body].join(':'))).toThrow(SecretOpenError);
    const tag = Buffer.from(body, 'base64url');
    tag[tag.length - 1] ^= 1;
    expect(() => ring.open([v, id, nonce, tag.toString('base64url')].join(':'))).toThrow(SecretOpenError);
    expect(() => ring.open('whsec_3f9a0c1d')).toThrow(SecretOpenError);
  });

  it('refuses a value sealed by another key, naming that key id but never the value', () => {
    const sealed = new Keyring(key()).seal('whsec_3f9a0c1d');
    const other = new Keyring(key());
    expect(() => other.open(sealed)).toThrow(/sealed with key [0-9a-f]{8}/);
    try {
      other.open(sealed);
    } catch (err) {
      expect(String(err)).not.toContain('whsec');
    }
  });

  it('refuses a key with the same id that is not the key (the tag is checked)', () => {
    const k = key();
    const sealed = new Keyring(k).seal('t');
    const forged = new Keyring(key());
    // Claim the sealing key's id for another key: only the tag can tell.
    Object.assign(forged, { currentId: keyIdOf(k) });
    (forged as unknown as { keys: Map<string, Buffer> }).keys.set(keyIdOf(k), key());
    expect(() => forged.open(sealed)).toThrow(/does not open/);
  });

  it('opens with a previous key during a rotation and seals only with the current one', () => {
    const old = key();
    const sealedOld = new Keyring(old).seal('bot-token');
    const ring = new Keyring(key(), [old]);
    expect(ring.open(sealedOld)).toBe('bot-token');
    expect(sealedKeyId(ring.seal('x'))).toBe(ring.currentId);
    expect(ring.keyIds).toEqual([ring.currentId, keyIdOf(old)]);
  });
});
