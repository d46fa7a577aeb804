import { isIP } from 'node:net';

/** proxy-addr's names for address ranges, as express accepts them in 'trust proxy'. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const MAX_HOPS = 10;

export const TRUST_PROXY_RULE =
  `TRUST_PROXY must be 0, false, a hop count from 1 to ${MAX_HOPS} (true = 1), or a comma list of proxy addresses, CIDRs or loopback/linklocal/uniquelocal`;

/**
 * TRUST_PROXY as express's 'trust proxy' value, or undefined when the text is none of the forms.
 * A hop count trusts that many proxies in front of the service, so the client address is the
 * one they appended to X-Forwarded-For, never one the client wrote there itself (trusting every
 * hop, as `true` does in express, let a client pick its own rate-limit key).
 */
export function parseTrustProxy(text: string): false | number | string[] | undefined {
  const value = text.trim().toLowerCase();
  if (value === '0' || value === 'false') return false;
  if (value === 'true') return 1;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops >= 1 && hops <= MAX_HOPS ? hops : undefined;
  }
  const entries = value.split(',').map((entry) => entry.trim());
  return entries.every(isProxyEntry) ? entries : undefined;
}

function isProxyEntry(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...more] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || more.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}
