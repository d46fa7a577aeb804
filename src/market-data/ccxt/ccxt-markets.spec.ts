import type { MarketInterface, Ticker, Tickers } from 'ccxt';
import { describe, expect, it } from 'vitest';
import { selectUniverse } from '../symbol-universe.js';
import { symbolsByTicker, toListings, toVolumes, unknownLots } from './ccxt-markets.js';

const market = (symbol: string): MarketInterface =>
  ({ symbol, active: true, spot: !symbol.includes(':'), swap: symbol.includes(':'), linear: true, settle: 'USDT' }) as MarketInterface;
const markets = (...symbols: string[]): Record<string, MarketInterface> => Object.fromEntries(symbols.map((s) => [s, market(s)]));

describe('lot-named markets', () => {
  it('lists binance 1000PEPE, 1000SHIB and 1MBABYDOGE perpetuals under the spot asset', () => {
    const listings = toListings(markets('PEPE/USDT', '1000PEPE/USDT:USDT', '1000SHIB/USDT:USDT', '1MBABYDOGE/USDT:USDT'));
    expect(listings).toEqual([
      { market: 'SPOT', ticker: 'PEPE-USDT' },
      { market: 'FUTURES', ticker: 'PEPE-USDT' },
      { market: 'FUTURES', ticker: 'SHIB-USDT' },
      { market: 'FUTURES', ticker: 'BABYDOGE-USDT' },
    ]);
  });

  it('watches the venue symbol of a ticker, the per-unit one when both are listed', () => {
    const symbols = symbolsByTicker(markets('PEPE/USDT', '1000PEPE/USDT:USDT', 'SHIB1000/USDT:USDT', 'SHIB/USDT:USDT', 'BTC/USDT:USDT'));
    expect(Object.fromEntries(symbols)).toEqual({
      'SPOT|PEPE-USDT': 'PEPE/USDT',
      'FUTURES|PEPE-USDT': '1000PEPE/USDT:USDT',
      'FUTURES|SHIB-USDT': 'SHIB/USDT:USDT',
      'FUTURES|BTC-USDT': 'BTC/USDT:USDT',
    });
  });
});

describe('symbolsByTicker', () => {
  it('is built once per loaded market set (a funding backfill asks once per perpetual) and afresh for a reloaded one', () => {
    const loaded = markets('BTC/USDT', 'BTC/USDT:USDT');
    const first = symbolsByTicker(loaded);
    expect(symbolsByTicker(loaded)).toBe(first);
    // ccxt's reload replaces the record: its own map, with what it lists now.
    const reloaded = markets('BTC/USDT', 'ETH/USDT:USDT');
    const second = symbolsByTicker(reloaded);
    expect(second).not.toBe(first);
    expect([...second.keys()]).toEqual(['SPOT|BTC-USDT', 'FUTURES|ETH-USDT']);
    expect([...symbolsByTicker(loaded).keys()]).toEqual(['SPOT|BTC-USDT', 'FUTURES|BTC-USDT']);
  });
});

describe('lots of unknown size', () => {
  it('leaves out a numeric prefix that is no venue lot, names why, and keeps the known ones', () => {
    const listed = markets('100PEPE/USDT:USDT', '10000000AIDOGE/USDT:USDT', '1000000MOG/USDT:USDT', '1INCH/USDT');
    const reason = 'unknown lot: 100PEPE starts with 100, which is no lot size the venues use (1000 to 10000000 or 1M)';
    expect(toListings(listed)).toEqual([
      { market: 'FUTURES', ticker: 'AIDOGE-USDT' },
      { market: 'FUTURES', ticker: 'MOG-USDT' },
      { market: 'SPOT', ticker: '1INCH-USDT' },
      { market: 'FUTURES', ticker: '100PEPE-USDT', leftOut: reason },
    ]);
    // Never watched, never in the universe.
    const spotLot = toListings(markets('100PEPE/USDT', 'BTC/USDT'));
    expect(selectUniverse([{ exchange: 'binance', markets: spotLot, volumes: [] }, { exchange: 'gate', markets: spotLot, volumes: [] }], 10)).toEqual(['BTC-USDT']);
    expect(symbolsByTicker(listed).has('FUTURES|100PEPE-USDT')).toBe(false);
    expect(unknownLots(listed)).toEqual([{ symbol: '100PEPE/USDT:USDT', reason }]);
  });
});

describe('24 h volume in quote currency', () => {
  // okx perpetuals: ccxt leaves quoteVolume empty and reports baseVolume in contracts.
  const perp = (symbol: string, contracts: number, last: number): Ticker =>
    ({ symbol, last, baseVolume: contracts, quoteVolume: undefined, info: {} }) as unknown as Ticker;
  const sized = (symbol: string, contractSize: number): MarketInterface => ({ ...market(symbol), contractSize });
  const okxMarkets = { 'BTC/USDT:USDT': sized('BTC/USDT:USDT', 0.01), 'ADA/USDT:USDT': sized('ADA/USDT:USDT', 100) };

  it('counts a perpetual traded in contracts at contracts x contract size x last', () => {
    const tickers: Tickers = { 'BTC/USDT:USDT': perp('BTC/USDT:USDT', 5_000, 100_000), 'ADA/USDT:USDT': perp('ADA/USDT:USDT', 400, 0.5) };
    // BTC: 5,000 contracts x 0.01 BTC x 100,000 = 5,000,000; ADA: 400 x 100 ADA x 0.5 = 20,000.
    expect(toVolumes('FUTURES', tickers, okxMarkets)).toEqual([
      { market: 'FUTURES', ticker: 'BTC-USDT', quoteVolume: 5_000_000 },
      { market: 'FUTURES', ticker: 'ADA-USDT', quoteVolume: 20_000 },
    ]);
  });

  it('prefers the quote volume the venue reports, and skips the other market kind', () => {
    const tickers: Tickers = {
      'BTC/USDT': { symbol: 'BTC/USDT', last: 100_000, baseVolume: 3, quoteVolume: 299_000, info: {} } as unknown as Ticker,
      'BTC/USDT:USDT': perp('BTC/USDT:USDT', 5_000, 100_000),
    };
    expect(toVolumes('SPOT', tickers, okxMarkets)).toEqual([{ market: 'SPOT', ticker: 'BTC-USDT', quoteVolume: 299_000 }]);
  });

  it('ranks the auto universe by that volume, not by contract counts', () => {
    // ETH's 2,000,000 USDT on binance outweighs BTC's 1,000 contracts of 0.01 (1,000,000 USDT) on
    // okx; counted as 1,000 BTC the okx row alone would put BTC first.
    const listing = (ticker: string) => [{ market: 'SPOT' as const, ticker }, { market: 'FUTURES' as const, ticker }];
    const universe = selectUniverse([
      { exchange: 'okx', markets: [...listing('BTC-USDT'), ...listing('ETH-USDT')], volumes: toVolumes('FUTURES', { 'BTC/USDT:USDT': perp('BTC/USDT:USDT', 1_000, 100_000) }, okxMarkets) },
      { exchange: 'binance', markets: listing('ETH-USDT'), volumes: [{ market: 'SPOT', ticker: 'ETH-USDT', quoteVolume: 2_000_000 }] },
    ], 10);
    expect(universe).toEqual(['ETH-USDT', 'BTC-USDT']);
  });
});
