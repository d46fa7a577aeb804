import { describe, expect, it } from 'vitest';
import { parseTrustProxy } from './trust-proxy.js';

describe('TRUST_PROXY', () => {
  it.each([
    ['0', false],
    ['false', false],
    ['1', 1],
    ['true', 1],
    ['2', 2],
    ['10.0.0.1', ['10.0.0.1']],
    ['10.0.0.0/8, loopback', ['10.0.0.0/8', 'loopback']],
    ['::1,fd00::/8', ['::1', 'fd00::/8']],
  ])('%s → %j', (text, expected) => {
    expect(parseTrustProxy(text)).toEqual(expected);
  });

  it.each(['11', '-1', 'yes', '10.0.0.0/33', '10.0.0.1/8/2', 'example.com', '1.2.3', ''])('%s is refused', (text) => {
    expect(parseTrustProxy(text)).toBeUndefined();
  });
});
