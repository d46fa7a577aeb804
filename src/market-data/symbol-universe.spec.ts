import { describe, expect, it } from 'vitest';
import type { MarketListing } from './market-data-source.js';
import { chunk, selectUniverse, tickersListed, watchedTickers } from './symbol-universe.js';
import { VENUES } from '../venues/registry.js';

/** A venue of the registry that quotes in USDC: the specs name none, so a new one changes nothing here. */
const USDC_VENUE = VENUES.find((v) => v.quoteCurrency === 'USDC')?.name ?? VENUES[0].name;

const spot = (...tickers: string[]): MarketListing[] => tickers.map((ticker) => ({ market: 'SPOT', ticker }));
const perp = (...tickers: string[]): MarketListing[] => tickers.map((ticker) => ({ market: 'FUTURES', ticker }));

describe('selectUniverse (auto symbols)', () => {
  const inputs = [
    {
      exchange: 'binance' as const,
      markets: [...spot('BTC-USDT', 'ETH-USDT', 'ONLY-USDT', 'BASIS-USDT', 'ETH-BTC'), ...perp('BASIS-USDT', 'PERP-USDT')],
      volumes: [
        { market: 'SPOT' as const, ticker: 'BTC-USDT', quoteVolume: 100 },
        { market: 'SPOT' as const, ticker: 'ETH-USDT', quoteVolume: 300 },
        { market: 'SPOT' as const, ticker: 'BASIS-USDT', quoteVolume: 50 },
      ],
    },
    {
      exchange: 'okx' as const,
      markets: [...spot('BTC-USDT', 'ETH-USDT', 'ETH-BTC'), ...perp('PERP-USDT')],
      volumes: [{ market: 'FUTURES' as const, ticker: 'BTC-USDT', quoteVolume: 250 }],
    },
  ];

  it('keeps USDT pairs on two spot markets or with spot and perp on one, by summed volume', () => {
    // BTC 100+250, ETH 300, BASIS 50 (spot+perp on binance); ONLY is on one spot market only,
    // PERP has no spot, ETH-BTC is not a USDT pair.
    expect(selectUniverse(inputs, 300)).toEqual(['BTC-USDT', 'ETH-USDT', 'BASIS-USDT']);
  });

  it('caps the list at MAX_SYMBOLS, highest volume first', () => {
    expect(selectUniverse(inputs, 2)).toEqual(['BTC-USDT', 'ETH-USDT']);
  });

  it('lists per market only what the exchange has', () => {
    expect(tickersListed(inputs[1].markets, 'FUTURES', ['BTC-USDT', 'PERP-USDT'])).toEqual(['PERP-USDT']);
  });

  it('chunks symbol lists', () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });
});

describe('watchedTickers', () => {
  const universe = ['BTC-USDT', 'ETH-USDT'];

  it('asks a USDC venue for the universe\'s coins as it lists them (BASE-USDC), spot and perpetual', () => {
    expect(watchedTickers(USDC_VENUE, universe, ['binance', USDC_VENUE])).toEqual({ spot: ['BTC-USDC', 'ETH-USDC'], futures: ['BTC-USDC', 'ETH-USDC'] });
    expect(watchedTickers(USDC_VENUE, [...universe, 'USDC-USDT'], ['binance', USDC_VENUE]).spot).toEqual(['BTC-USDC', 'ETH-USDC']);
  });

  it('adds the USDC-USDT spot rate to the USDT venues only while a USDC venue is watched', () => {
    expect(watchedTickers('binance', universe, ['binance', USDC_VENUE])).toEqual({ spot: ['BTC-USDT', 'ETH-USDT', 'USDC-USDT'], futures: universe });
    expect(watchedTickers('binance', universe, ['binance', 'bybit'])).toEqual({ spot: universe, futures: universe });
    expect(watchedTickers('binance', [...universe, 'USDC-USDT'], ['binance', USDC_VENUE]).spot).toEqual([...universe, 'USDC-USDT']);
  });
});
