import { describe, expect, it } from 'vitest';
import { CSV_HEADER } from './journal-csv.js';
import { rowToFields } from './journal-import.js';

const row = (cells: Record<string, string>): string[] => CSV_HEADER.map((column) => cells[column] ?? '');

describe('journal import row (rules: csv) under the money policy', () => {
  const base = {
    strategy: 'cross_exchange',
    asset: 'BTC',
    buy_exchange: 'binance',
    sell_exchange: 'okx',
    opened_at: '2026-03-01T09:30:00-03:00',
    closed_at: '2026-03-02T09:30:00-03:00',
    entry_buy_price: '1000000',
  };

  it('a row whose result reaches 1e13 is refused on its own, naming the CSV column', () => {
    // (2,000,000 − 1,000,000) × 10,000,000 = 1e13
    const result = rowToFields('a@example.com', CSV_HEADER, row({ ...base, quantity: '10000000', exit_sell_price: '2000000' }));
    expect(result).toEqual({ ok: false, message: 'gross_pnl is out of range (figures are limited to ±1e13)' });
  });

  it('just below the limit the row is accepted', () => {
    // (1,999,999.99 − 1,000,000) × 10,000,000 = 9,999,999,900,000
    const result = rowToFields('a@example.com', CSV_HEADER, row({ ...base, quantity: '10000000', exit_sell_price: '1999999.99' }));
    expect(result.ok).toBe(true);
  });
});
