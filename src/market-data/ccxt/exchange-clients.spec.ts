import http from 'node:http';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXCHANGE_NAMES } from '../../market-model/exchanges.js';
import { CCXT_URL_KEYS, SERVICE_ENDPOINTS } from '../../config/exchange-urls.js';
import { venueOf } from '../../venues/registry.js';
import { CCXT_VERSION, createExchangeClient, quoteVolumeOf, renameLetterLots, rewriteApiUrls, toBaseQuantity } from './exchange-clients.js';

const SIM = 'http://127.0.0.1:18090';

function allStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(allStrings);
  return [];
}

describe('ccxt classes loaded by file', () => {
  it('package.json pins exactly the ccxt version whose file layout exchange-clients relies on', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies.ccxt).toBe(CCXT_VERSION);
  });

  it.each(EXCHANGE_NAMES)('%s: the class is ccxt\'s pro client of that exchange, with the watch its quotes come from', (name) => {
    const client = createExchangeClient(name);
    expect(client.id).toBe(name);
    expect(client.has[venueOf(name).feeds.quotesFrom === 'orderBook' ? 'watchOrderBook' : 'watchBidsAsks']).toBe(true);
  });
});

describe('renameLetterLots', () => {
  it('reads a lower-case lot prefix before an upper-case name as the numeric lot; other names pass through', () => {
    const client = createExchangeClient('binance');
    renameLetterLots(client, { k: 1000 });
    expect(client.safeCurrencyCode('kPEPE')).toBe('1000PEPE');
    expect(client.safeCurrencyCode('kBONK')).toBe('1000BONK');
    // KAVA and KNC are coins, not lots; a lower-case word is no coin name with a prefix.
    expect(client.safeCurrencyCode('KAVA')).toBe('KAVA');
    expect(client.safeCurrencyCode('KNC')).toBe('KNC');
    expect(client.safeCurrencyCode('kas')).toBe('KAS');
  });
});

describe('createExchangeClient', () => {
  it.each(EXCHANGE_NAMES)('%s: every api URL points at the simulator, original host first', (name) => {
    const real = createExchangeClient(name);
    const simulated = createExchangeClient(name, { simulatorUrl: SIM });
    const before = allStrings(real.urls.api);
    const after = allStrings(simulated.urls.api);
    expect(after).toHaveLength(before.length);
    for (const url of after) {
      expect(url).not.toMatch(/https:\/\/|wss:\/\/|\{hostname\}/);
      expect(url).toMatch(/^(http|ws):\/\/127\.0\.0\.1:18090\//);
    }
    before.forEach((original, index) => {
      // The authority exactly as ccxt writes it (`stream.binance.com:9443`, `ws-api.binance.com:443`).
      const host = /^\w+:\/\/([^/]+)/.exec(original.replaceAll('{hostname}', real.hostname ?? ''))?.[1];
      expect(new URL(after[index] ?? '').pathname.split('/')[1]).toBe(host);
    });
  });

  it('keeps ws URLs as ws:// and REST URLs as http://', () => {
    const bybit = createExchangeClient('bybit', { simulatorUrl: SIM });
    const ws = (bybit.urls.api as { ws: { public: { spot: string; linear: string } } }).ws.public;
    expect(ws.spot).toBe('ws://127.0.0.1:18090/stream.bybit.com/v5/public/spot');
    expect(ws.linear).toBe('ws://127.0.0.1:18090/stream.bybit.com/v5/public/linear');
    expect((bybit.urls.api as { public: string }).public).toBe('http://127.0.0.1:18090/api.bybit.com');
  });

  it('binance spot socket URL still contains /stream (ccxt files spot quotes by it)', () => {
    const binance = createExchangeClient('binance', { simulatorUrl: SIM });
    const ws = (binance.urls.api as { ws: { spot: string; future: string } }).ws;
    expect(ws.spot).toContain('/stream');
    expect(ws.future).not.toContain('/stream');
  });

  it('asks only for spot and linear markets, without currencies; ccxt\'s limiter on for real venues, off against the simulator unless asked', () => {
    const client = createExchangeClient('binance', { simulatorUrl: SIM });
    expect(client.options.fetchMarkets).toMatchObject({ types: ['spot', 'linear'] });
    expect(client.has.fetchCurrencies).toBe(false);
    expect(client.enableRateLimit).toBe(false);
    expect(createExchangeClient('okx').enableRateLimit).toBe(true);
    expect(createExchangeClient('okx', { simulatorUrl: SIM, enableRateLimit: true }).enableRateLimit).toBe(true);
  });

  it('holds API keys only when given; binance then enables its signed fetchCurrencies, never margin pairs', () => {
    const plain = createExchangeClient('binance', { simulatorUrl: SIM });
    expect(plain.apiKey).toBeFalsy();
    expect(plain.options).toMatchObject({ fetchCurrencies: false, fetchMargins: false });
    const signed = createExchangeClient('binance', { simulatorUrl: SIM, credentials: { apiKey: 'k', secret: 's' } });
    expect([signed.apiKey, signed.secret]).toEqual(['k', 's']);
    expect(signed.options).toMatchObject({ fetchCurrencies: true, fetchMargins: false, fetchMarkets: { types: ['spot', 'linear'] } });
    // loadMarkets still skips currencies.
    expect(signed.has.fetchCurrencies).toBe(false);
    const okx = createExchangeClient('okx', { credentials: { apiKey: 'k', secret: 's', password: 'p' } });
    expect([okx.apiKey, okx.secret, okx.password]).toEqual(['k', 's', 'p']);
  });

  it('rewrites nested structures and leaves non-URLs alone', () => {
    expect(rewriteApiUrls({ a: ['https://x.com/p', 'plain'], b: 1 }, undefined, 'http://h:1/')).toEqual({
      a: ['http://h:1/x.com/p', 'plain'], b: 1,
    });
  });
});

describe('toBaseQuantity / quoteVolumeOf', () => {
  it('multiplies contract amounts by the contract size', () => {
    expect(toBaseQuantity({ contractSize: 0.01 }, 150)).toBeCloseTo(1.5, 12);
    expect(toBaseQuantity({ contractSize: undefined }, 2)).toBe(2);
  });

  it('reads a quantity as the venue means it, without binary floating-point tails', () => {
    expect(toBaseQuantity({ contractSize: 0.0001 }, 2517)).toBe(0.2517);
    expect(toBaseQuantity({ contractSize: 0.1 }, 3)).toBe(0.3);
    expect(toBaseQuantity({ contractSize: 10 }, 0.7)).toBe(7);
  });

  it('uses quoteVolume, else okx volCcy24h (base units) times last', () => {
    expect(quoteVolumeOf({ quoteVolume: 10, symbol: 'A' } as never)).toBe(10);
    expect(quoteVolumeOf({ symbol: 'A', last: 100, baseVolume: 5, info: { volCcy24h: '2' } } as never)).toBe(200);
    expect(quoteVolumeOf({ symbol: 'A', last: 100, baseVolume: 5, info: {} } as never, { contractSize: 0.1 })).toBe(50);
  });

  it('rounds a volume it computes to the cent, as venues report it, without binary tails', () => {
    // 11 contracts of 0.1 at 1.1 is 1.2100000000000002 in doubles; okx's BTC 24 h volume read
    // 4410773602.22598 and ETH 2221420504.4642134 on the demo's price stream.
    expect(quoteVolumeOf({ symbol: 'A', last: 1.1, baseVolume: 11, info: {} } as never, { contractSize: 0.1 })).toBe(1.21);
    expect(quoteVolumeOf({ symbol: 'A', last: 0.7, baseVolume: 3, info: { volCcy24h: '3' } } as never)).toBe(2.1);
    expect(quoteVolumeOf({ symbol: 'A', last: 3424.57, baseVolume: 6_486_682.3, info: {} } as never, { contractSize: 0.1 })).toBe(2_221_409_760.41);
    // A quote volume the venue sent is passed on as sent.
    expect(quoteVolumeOf({ symbol: 'A', quoteVolume: 4446193309.0561 } as never)).toBe(4446193309.0561);
  });
});

describe('EXCHANGE_URLS against ccxt 4.5.84', () => {
  const leavesOf = (value: unknown, path = ''): [string, string][] =>
    typeof value === 'string'
      ? [[path, value]]
      : typeof value === 'object' && value !== null
        ? Object.entries(value).flatMap(([k, v]) => leavesOf(v, path === '' ? k : `${path}.${k}`))
        : [];

  it.each(EXCHANGE_NAMES)('%s: the keys EXCHANGE_URLS accepts are exactly ccxt\'s URL leaves, of the same kind', (name) => {
    const leaves = leavesOf(createExchangeClient(name).urls.api);
    expect(Object.fromEntries(leaves.map(([path, url]) => [path, url.startsWith('ws') ? 'w' : 'h']))).toEqual(CCXT_URL_KEYS[name]);
  });

  it.each(EXCHANGE_NAMES)('%s: the endpoints the start log names are ccxt\'s defaults', (name) => {
    const client = createExchangeClient(name);
    const leaves = new Map(leavesOf(client.urls.api).map(([path, url]) => [path, url.replaceAll('{hostname}', client.hostname ?? '')]));
    for (const [path, url] of Object.entries(SERVICE_ENDPOINTS[name])) expect(leaves.get(path), path).toBe(url);
  });

  it('an override replaces that leaf alone, and is rewritten to the simulator like any other', () => {
    const client = createExchangeClient('okx', { urls: { ws: 'wss://ws.okx.com/ws/v5' } });
    expect(client.urls.api).toMatchObject({ ws: 'wss://ws.okx.com/ws/v5', rest: 'https://{hostname}' });
    const simulated = createExchangeClient('okx', { urls: { ws: 'wss://ws.okx.com/ws/v5' }, simulatorUrl: SIM });
    expect(simulated.urls.api).toMatchObject({ ws: 'ws://127.0.0.1:18090/ws.okx.com/ws/v5' });
    const bybit = createExchangeClient('bybit', { urls: { 'ws.public.linear': 'wss://l.example/v5/public/linear' } });
    expect(bybit.urls.api).toMatchObject({ ws: { public: { linear: 'wss://l.example/v5/public/linear', spot: 'wss://stream.{hostname}/v5/public/spot' } } });
    // The shared defaults are untouched.
    expect(createExchangeClient('okx').urls.api).toMatchObject({ ws: 'wss://ws.okx.com:8443/ws/v5' });
  });

  it('a plain ws:// override gets the agent ccxt requires for it in Node; wss:// ones leave ccxt its own', () => {
    const relayed = createExchangeClient('okx', { urls: { ws: 'ws://127.0.0.1:18090/ws.okx.com/ws/v5' } });
    expect(relayed.httpAgent).toBeInstanceOf(http.Agent);
    expect(createExchangeClient('okx', { urls: { ws: 'wss://ws.okx.com/ws/v5' } }).httpAgent).toBeUndefined();
  });
});
