import { describe, expect, it } from 'vitest';
import type { ExchangeName } from '../market-model/exchanges.js';
import { medianOf, NameCollisionDetector, type MidQuote } from './name-collision.engine.js';

const MIN = 60_000;
const q = (exchange: ExchangeName, ticker: string, mid: number): MidQuote => ({ exchange, ticker, bid: mid - 0.01, ask: mid + 0.01 });

describe('NameCollisionDetector', () => {
  const detector = (): NameCollisionDetector => new NameCollisionDetector({ spreadPercent: 20, minDurationMs: 10 * MIN });

  it('takes the median of the venues: the odd one is 50 % off 1.00, the others 0 %', () => {
    // Mids 1.00, 1.00, 1.00, 1.50 (gate lists another coin as FOO): median (1.00 + 1.00) / 2 = 1.00,
    // gate |1.50 − 1.00| / 1.00 = 50 % > 20 %.
    const d = detector();
    const quotes = [q('binance', 'FOO-USDT', 1), q('bybit', 'FOO-USDT', 1), q('okx', 'FOO-USDT', 1), q('gate', 'FOO-USDT', 1.5)];
    d.evaluate(quotes, 0);
    d.evaluate(quotes, 10 * MIN - 1);
    expect(d.list()).toEqual([]); // 1 ms short of 10 minutes
    d.evaluate(quotes, 10 * MIN);
    expect(d.list()).toEqual([{ ticker: 'FOO-USDT', exchange: 'gate', since: 0, reason: 'name collision: mid 50.0 % away from the median of 4 exchanges for over 10 min (threshold 20 %): another coin under the same ticker' }]);
    expect(d.isExcluded('gate', 'FOO-USDT')).toBe(true);
    expect(d.isExcluded('binance', 'FOO-USDT')).toBe(false);
  });

  it('needs the spread without a break: one evaluation back within restarts the clock', () => {
    const d = detector();
    const far = [q('binance', 'FOO-USDT', 1), q('okx', 'FOO-USDT', 1), q('gate', 'FOO-USDT', 1.5)];
    const near = [q('binance', 'FOO-USDT', 1), q('okx', 'FOO-USDT', 1), q('gate', 'FOO-USDT', 1.15)]; // 15 %
    d.evaluate(far, 0);
    d.evaluate(near, 5 * MIN);
    d.evaluate(far, 6 * MIN);
    d.evaluate(far, 15 * MIN);
    expect(d.list()).toEqual([]); // off since 6 min: 9 minutes
    d.evaluate(far, 16 * MIN);
    expect(d.list().map((e) => [e.exchange, e.since])).toEqual([['gate', 6 * MIN]]);
  });

  it('readmits a venue at the first evaluation back within the threshold', () => {
    const d = detector();
    d.evaluate([q('binance', 'FOO-USDT', 1), q('okx', 'FOO-USDT', 1), q('gate', 'FOO-USDT', 0.5)], 0); // 50 % under
    d.evaluate([q('binance', 'FOO-USDT', 1), q('okx', 'FOO-USDT', 1), q('gate', 'FOO-USDT', 0.5)], 10 * MIN);
    expect(d.isExcluded('gate', 'FOO-USDT')).toBe(true);
    d.evaluate([q('binance', 'FOO-USDT', 1), q('okx', 'FOO-USDT', 1), q('gate', 'FOO-USDT', 1.2)], 11 * MIN); // exactly 20 %: not more
    expect(d.list()).toEqual([]);
  });

  it('with two venues measures each against the other and excludes both', () => {
    // Mids 1.00 and 1.25, each against the other: binance |1.00 − 1.25| / 1.25 = 20 %, not more
    // than 20 %; okx |1.25 − 1.00| / 1.00 = 25 %.
    const d = detector();
    const quotes = [q('binance', 'BAR-USDT', 1), q('okx', 'BAR-USDT', 1.25)];
    d.evaluate(quotes, 0);
    d.evaluate(quotes, 10 * MIN);
    expect(d.list().map((e) => e.exchange)).toEqual(['okx']);
    const wider = [q('binance', 'BAR-USDT', 1), q('okx', 'BAR-USDT', 1.3)]; // 23.1 % and 30 %
    d.evaluate(wider, 11 * MIN);
    d.evaluate(wider, 21 * MIN);
    expect(d.list().map((e) => [e.exchange, e.reason.includes('the only other exchange quoting it')])).toEqual([['okx', true], ['binance', true]]);
  });

  it('ignores a ticker quoted on one venue and a venue without a quote keeps its state', () => {
    const d = detector();
    d.evaluate([q('binance', 'SOLO-USDT', 1)], 0);
    d.evaluate([q('binance', 'FOO-USDT', 1), q('okx', 'FOO-USDT', 1), q('gate', 'FOO-USDT', 2)], 0);
    d.evaluate([q('binance', 'FOO-USDT', 1), q('okx', 'FOO-USDT', 1)], 5 * MIN); // gate stale
    d.evaluate([q('binance', 'FOO-USDT', 1), q('okx', 'FOO-USDT', 1), q('gate', 'FOO-USDT', 2)], 10 * MIN);
    expect(d.list().map((e) => [e.exchange, e.since])).toEqual([['gate', 0]]);
  });

  it('computes medians of odd and even counts', () => {
    expect(medianOf([3, 1, 2])).toBe(2);
    expect(medianOf([4, 1, 3, 2])).toBe(2.5);
  });
});
