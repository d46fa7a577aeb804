import { describe, expect, it } from 'vitest';
import { endpointsInUse, parseExchangeUrls, toExchangeUrls } from './exchange-urls.js';
import { validateEnv } from './validate-env.js';

describe('EXCHANGE_URLS', () => {
  it('reads a comma list of exchange.key=url', () => {
    expect(parseExchangeUrls(' okx.ws=wss://ws.okx.com/ws/v5 , binance.ws.future=wss://fstream.example/ws,gate.public.spot=https://api.example/api/v4')).toEqual({
      ok: true,
      urls: { okx: { ws: 'wss://ws.okx.com/ws/v5' }, binance: { 'ws.future': 'wss://fstream.example/ws' }, gate: { 'public.spot': 'https://api.example/api/v4' } },
    });
  });

  it('reads JSON with dotted keys or nested objects', () => {
    expect(parseExchangeUrls('{"okx.ws":"wss://a.example/ws/v5","bybit":{"ws":{"public":{"spot":"wss://b.example/v5/public/spot"}}}}')).toEqual({
      ok: true,
      urls: { okx: { ws: 'wss://a.example/ws/v5' }, bybit: { 'ws.public.spot': 'wss://b.example/v5/public/spot' } },
    });
  });

  it.each([
    ['kraken.ws=wss://x.example', 'does not start with one of binance, bybit, okx, gate, bitget'],
    ['okx.wss=wss://x.example', 'names no URL of okx (for example okx.ws, okx.rest)'],
    ['okx.ws=https://x.example', 'needs a wss:// or ws:// URL'],
    ['okx.rest=wss://x.example', 'needs a https:// or http:// URL'],
    ['okx.ws', 'is not exchange.key=url'],
    ['{"okx.ws": 1}', 'must be a URL string'],
    ['{"okx.ws":', 'is not valid JSON'],
  ])('refuses %s', (raw, error) => {
    const parsed = parseExchangeUrls(raw);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.error).toContain(error);
  });

  it('the service refuses to start on a bad value, naming the variable and the entry', () => {
    expect(() => validateEnv({ EXCHANGE_URLS: 'okx.wss=wss://x.example' })).toThrow(/EXCHANGE_URLS "okx\.wss" names no URL of okx/);
  });

  it('okx dials port 443 by default (as okx documents it); an override replaces it', () => {
    expect(toExchangeUrls(undefined)).toEqual({ okx: { ws: 'wss://ws.okx.com/ws/v5' } });
    expect(endpointsInUse('okx', toExchangeUrls(undefined))).toEqual({ ws: 'wss://ws.okx.com/ws/v5', rest: 'https://www.okx.com' });
    const urls = toExchangeUrls('okx.ws=wss://ws.okx.com:8443/ws/v5,gate.spot=wss://g.example/ws/v4/');
    expect(urls).toEqual({ okx: { ws: 'wss://ws.okx.com:8443/ws/v5' }, gate: { spot: 'wss://g.example/ws/v4/' } });
    expect(endpointsInUse('gate', urls).spot).toBe('wss://g.example/ws/v4/');
  });
});
