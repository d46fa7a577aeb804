import { describe, expect, it } from 'vitest';
import { perUnit, quoteInUsdt, usdcToUsdt, usdcUsdtRate, type RateQuote } from './quote-currency.engine.js';
import { VENUES } from '../venues/registry.js';

/** A venue of the registry that quotes in USDC: the specs name none, so a new one changes nothing here. */
const USDC_VENUE = VENUES.find((v) => v.quoteCurrency === 'USDC')?.name ?? VENUES[0].name;

const NOW = Date.UTC(2026, 11, 2, 9);
const STALE_MS = 10_000;
const q = (exchange: RateQuote['exchange'], bid: number, ask: number, ageMs = 0): RateQuote => ({ exchange, bid, ask, receivedAt: NOW - ageMs });

describe('usdcUsdtRate: USDT per USDC from the venues\' USDC-USDT spot books', () => {
  it('is the mid of the narrowest fresh book: 0.9998 / 0.9999 → 0.99985', () => {
    expect(usdcUsdtRate([q('bybit', 0.9997, 0.9999), q('binance', 0.9998, 0.9999)], NOW, STALE_MS))
      .toEqual({ rate: 0.99985, exchange: 'binance', ticker: 'USDC-USDT', bid: 0.9998, ask: 0.9999, receivedAt: NOW });
  });

  it('breaks a tie of widths by the registry\'s order, whatever the arrival order', () => {
    expect(usdcUsdtRate([q('okx', 1.0001, 1.0002), q('binance', 0.9999, 1)], NOW, STALE_MS)?.exchange).toBe('binance');
    expect(usdcUsdtRate([q('binance', 0.9999, 1), q('okx', 1.0001, 1.0002)], NOW, STALE_MS)?.exchange).toBe('binance');
  });

  it('skips a stale, one-sided or crossed book; none left is no rate (never 1:1)', () => {
    expect(usdcUsdtRate([q('binance', 0.9998, 0.9999, 10_001), q('gate', 1.0001, 1.0003)], NOW, STALE_MS)).toMatchObject({ exchange: 'gate', rate: 1.0002 });
    expect(usdcUsdtRate([q('binance', 0, 0.9999), q('bybit', 1.0003, 1.0001)], NOW, STALE_MS)).toBeNull();
    expect(usdcUsdtRate([], NOW, STALE_MS)).toBeNull();
  });
});

describe('usdcToUsdt and perUnit, in decimal', () => {
  it('97,001.1 USDC at 0.99985 is 96,986.549835 USDT (97,001.1 − 97,001.1 × 0.00015 = 97,001.1 − 14.550165)', () => {
    expect(usdcToUsdt(97_001.1, 0.99985)).toBe(96_986.549835);
  });

  it('3,401.5 USDC at 1.0002 is 3,402.1803 USDT (3,401.5 + 0.6803)', () => {
    expect(usdcToUsdt(3_401.5, 1.0002)).toBe(3_402.1803);
  });

  it('a kPEPE price is per 1,000 PEPE: 0.0181 → 0.0000181 per PEPE (doubles give 0.000018099999999999998), then 0.000018097285 USDT at 0.99985', () => {
    expect(0.0181 / 1000).not.toBe(0.0000181);
    expect(perUnit(0.0181, 1000)).toBe(0.0000181);
    // 0.0000181 × 0.99985 = 0.0000181 − 0.000000002715
    expect(usdcToUsdt(perUnit(0.0181, 1000), 0.99985)).toBe(0.000018097285);
  });
});

describe('quoteInUsdt: a USDC venue\'s quote beside USDT ones', () => {
  const rate = usdcUsdtRate([q('binance', 0.9998, 0.9999)], NOW, STALE_MS);

  it('converts both sides and states the rate and its book, as the event shows it', () => {
    expect(quoteInUsdt(USDC_VENUE, 97_001.1, 97_001.3, rate)).toEqual({
      bid: 96_986.549835,
      // 97,001.3 − 97,001.3 × 0.00015 = 97,001.3 − 14.550195
      ask: 96_986.749805,
      conversion: {
        exchange: USDC_VENUE, from: 'USDC', to: 'USDT', rate: 0.99985,
        rateSource: { exchange: 'binance', ticker: 'USDC-USDT', bid: 0.9998, ask: 0.9999 }, bidUsdc: 97_001.1, askUsdc: 97_001.3,
      },
    });
  });

  it('changes which venue is cheaper where 1:1 would not: 97,001.3 USDC is below a 96,990 USDT ask at 0.99985', () => {
    const converted = quoteInUsdt(USDC_VENUE, 97_001.1, 97_001.3, rate);
    expect(97_001.3 < 96_990).toBe(false);
    expect(converted && converted.ask < 96_990).toBe(true);
  });

  it('without a rate there is no quote to compare', () => {
    expect(quoteInUsdt(USDC_VENUE, 97_001.1, 97_001.3, null)).toBeNull();
  });
});
