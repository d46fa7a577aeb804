import { describe, expect, it } from 'vitest';
import { baseUnitOf, fromCcxtSymbol, multiplierOfCcxtSymbol, unknownLotOfCcxtSymbol, parseTicker, toCanonicalTicker, toCompactTicker } from './ticker.js';

describe('ticker normaliser (rules: tickers)', () => {
  it.each([
    ['BTC-USDT', 'BTC-USDT'],
    ['btc-usdt', 'BTC-USDT'],
    ['BTCUSDT', 'BTC-USDT'],
    ['btcusdt', 'BTC-USDT'],
    ['  ethbtc ', 'ETH-BTC'],
    ['1000PEPEUSDT', '1000PEPE-USDT'],
    ['USDTBRL', 'USDT-BRL'],
  ])('%s -> %s', (input, expected) => {
    expect(toCanonicalTicker(input)).toBe(expected);
  });

  it('matches the longest known quote first', () => {
    expect(parseTicker('BTCFDUSD')).toEqual({ base: 'BTC', quote: 'FDUSD' });
    expect(parseTicker('BTCTUSD')).toEqual({ base: 'BTC', quote: 'TUSD' });
    expect(parseTicker('ETHUSDC')).toEqual({ base: 'ETH', quote: 'USDC' });
  });

  it.each(['', 'USDT', 'BTC', 'BTC-', '-USDT', 'BTC-XYZ', 'BTC/USDT', 'BTC_USDT', 'BTC-USDT-X', 'B TC'])(
    'rejects %j',
    (input) => {
      expect(parseTicker(input)).toBeNull();
    },
  );

  it('gives the compact form stored by lookers and favorites', () => {
    expect(toCompactTicker('btc-usdt')).toBe('BTCUSDT');
    expect(toCompactTicker('nope')).toBeNull();
  });

  it('reads ccxt spot and perpetual symbols', () => {
    expect(fromCcxtSymbol('BTC/USDT')).toBe('BTC-USDT');
    expect(fromCcxtSymbol('BTC/USDT:USDT')).toBe('BTC-USDT');
  });

  it.each([
    // symbol as ccxt 4.5.84 builds it from the venue's base, canonical ticker, units per price
    ['1000PEPE/USDT:USDT', 'PEPE-USDT', 1000], // binance and bybit USDⓈ-M / linear
    ['1000SHIB/USDT:USDT', 'SHIB-USDT', 1000], // binance
    ['SHIB1000/USDT:USDT', 'SHIB-USDT', 1000], // bybit names it behind
    ['1MBABYDOGE/USDT:USDT', 'BABYDOGE-USDT', 1_000_000], // binance
    ['1MBABYDOGE/USDT', 'BABYDOGE-USDT', 1_000_000], // binance spot lists the lot too
    ['1000000BABYDOGE/USDT:USDT', 'BABYDOGE-USDT', 1_000_000], // bybit
    ['10000LADYS/USDT:USDT', 'LADYS-USDT', 10_000], // bybit
    ['10000SATS/USDT:USDT', 'SATS-USDT', 10_000], // bybit
    ['100000AIDOGE/USDT:USDT', 'AIDOGE-USDT', 100_000],
    ['1000000MOG/USDT:USDT', 'MOG-USDT', 1_000_000], // binance
    ['1000000PEIPEI/USDT:USDT', 'PEIPEI-USDT', 1_000_000], // bybit
    ['10000000AIDOGE/USDT:USDT', 'AIDOGE-USDT', 10_000_000], // bybit
    ['1000X/USDT:USDT', 'X-USDT', 1000], // binance: a one-letter coin in lots
    ['PEPEX1000/USDT:USDT', 'PEPE-USDT', 1000], // the factor written behind as X1000
    ['SHIB10000/USDT:USDT', 'SHIB-USDT', 10_000],
    ['0G/USDT', '0G-USDT', 1], // a coin whose name starts with a digit
    ['2Z/USDT', '2Z-USDT', 1],
    ['PEPE/USDT:USDT', 'PEPE-USDT', 1], // okx, gate, bitget: per unit, contract size apart
    ['1INCH/USDT', '1INCH-USDT', 1], // a name, not a lot
    ['1000/USDT', '1000-USDT', 1],
    ['ARB/USDT', 'ARB-USDT', 1],
  ])('reads the lot multiplier of %s: %s per %d', (symbol, ticker, multiplier) => {
    expect(fromCcxtSymbol(symbol)).toBe(ticker);
    expect(multiplierOfCcxtSymbol(symbol)).toBe(multiplier);
  });

  it('prices a lot per unit: 1000PEPE at 0.01820 is PEPE at 0.0000182', () => {
    // Hand-computed: 0.0182 / 1000 = 0.0000182, the spot PEPE price of the simulator.
    expect(0.0182 / multiplierOfCcxtSymbol('1000PEPE/USDT:USDT')).toBeCloseTo(0.0000182, 12);
    expect(baseUnitOf('1MBABYDOGE')).toEqual({ asset: 'BABYDOGE', multiplier: 1_000_000 });
  });

  it.each(['100PEPE', '500SATS', '1001CAT', '2000BONK', '100000000PEPE'])('leaves out %s: a number that is no lot size the venues use', (base) => {
    const unit = baseUnitOf(base);
    expect(unit).toMatchObject({ asset: base, multiplier: 1 });
    expect(unit.unknownLot).toMatch(/^unknown lot: /);
    expect(unknownLotOfCcxtSymbol(`${base}/USDT:USDT`)).toBe(unit.unknownLot);
  });

  it('knows every lot the venues use', () => {
    expect(unknownLotOfCcxtSymbol('1000PEPE/USDT:USDT')).toBeUndefined();
    expect(unknownLotOfCcxtSymbol('1INCH/USDT')).toBeUndefined();
  });
});
