import { describe, expect, it } from 'vitest';
import type { ExchangeName } from '../market-model/exchanges.js';
import { UsdcQuotes, transferNoteOf } from './usdc-quotes.js';
import { VENUES } from '../venues/registry.js';

/** A venue of the registry that quotes in USDC: the specs name none, so a new one changes nothing here. */
const USDC_VENUE = VENUES.find((v) => v.quoteCurrency === 'USDC')?.name ?? VENUES[0].name;

const NOW = 1_000_000;
type Book = Partial<Record<ExchangeName, { bid: number; ask: number; receivedAt: number }>>;
const source = (rates: Book) => ({ get: (exchange: ExchangeName) => rates[exchange] });

describe('UsdcQuotes', () => {
  it('passes a USDT venue\'s quote as it is', () => {
    const usdc = new UsdcQuotes(['binance', USDC_VENUE], source({}), 10_000);
    const tick = { exchange: 'binance' as const, ticker: 'ETH-USDT', bid: 1, ask: 2, receivedAt: NOW };
    expect(usdc.forDetector(tick, NOW)).toBe(tick);
  });

  it('brings a USDC venue\'s BASE-USDC quote in as BASE-USDT at the USDT venues\' rate, and keeps the conversion for the route', () => {
    const usdc = new UsdcQuotes(['binance', 'bybit', USDC_VENUE], source({ binance: { bid: 0.9998, ask: 0.9999, receivedAt: NOW } }), 10_000);
    // 3,100 × 0.99985 = 3,099.535; 3,100.5 × 0.99985 = 3,100.034925
    expect(usdc.forDetector({ exchange: USDC_VENUE, ticker: 'ETH-USDC', bid: 3100, ask: 3100.5, receivedAt: NOW }, NOW))
      .toEqual({ exchange: USDC_VENUE, ticker: 'ETH-USDT', bid: 3099.535, ask: 3100.034925, receivedAt: NOW });
    expect(usdc.conversionsOf('ETH-USDT', 'binance', USDC_VENUE)).toEqual([expect.objectContaining({ exchange: USDC_VENUE, rate: 0.99985, bidUsdc: 3100 })]);
    expect(usdc.conversionsOf('ETH-USDT', 'binance', 'bybit')).toEqual([]);
  });

  it('drops a USDC quote while no fresh rate is published (never 1:1), and its conversion with it', () => {
    const book: Book = { binance: { bid: 0.9998, ask: 0.9999, receivedAt: NOW } };
    const usdc = new UsdcQuotes(['binance', USDC_VENUE], source(book), 10_000);
    usdc.forDetector({ exchange: USDC_VENUE, ticker: 'ETH-USDC', bid: 3100, ask: 3100.5, receivedAt: NOW }, NOW);
    expect(usdc.forDetector({ exchange: USDC_VENUE, ticker: 'ETH-USDC', bid: 3100, ask: 3100.5, receivedAt: NOW + 10_001 }, NOW + 10_001)).toBeNull();
    expect(usdc.conversionsOf('ETH-USDT', 'binance', USDC_VENUE)).toEqual([]);
  });

  it('says how a transfer to or from an on-chain venue is treated; null between exchanges', () => {
    expect(transferNoteOf('binance', USDC_VENUE)).toContain('on-chain venue');
    expect(transferNoteOf('binance', 'okx')).toBeNull();
  });
});
