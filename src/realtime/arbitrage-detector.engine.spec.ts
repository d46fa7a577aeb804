import { describe, expect, it } from 'vitest';
import type { ExchangeName } from '../market-model/exchanges.js';
import { ArbitrageDetector, type ClosedEpisode, profitPercentOf } from './arbitrage-detector.engine.js';

const NOW = 1_800_000_000_000;
const q = (exchange: ExchangeName, bid: number, ask: number, ageMs = 0, ticker = 'BTC-USDT') => ({
  exchange,
  ticker,
  bid,
  ask,
  receivedAt: NOW - ageMs,
});

const detector = (minProfitPercent = 0.1) => new ArbitrageDetector({ minProfitPercent, staleMs: 10_000 });

describe('ArbitrageDetector (rules: opportunities)', () => {
  it('buys at the lowest ask and sells at the highest bid on another exchange', () => {
    const d = detector();
    d.apply(q('binance', 99.9, 100));
    d.apply(q('okx', 100.5, 100.6));
    d.apply(q('gate', 100.2, 100.3));
    // (100.5 - 100) / 100 * 100 = 0.5 %
    expect(d.best('BTC-USDT', NOW)).toEqual({
      ticker: 'BTC-USDT',
      buyExchange: 'binance',
      sellExchange: 'okx',
      buyPrice: 100,
      sellPrice: 100.5,
      profitPercentAskBid: expect.closeTo(0.5, 12),
    });
  });

  it('never uses one exchange for both sides: takes the better of the two cross pairs', () => {
    const d = detector();
    // bybit has both the lowest ask (100) and the highest bid (101, a crossed book).
    d.apply(q('bybit', 101, 100));
    d.apply(q('binance', 100.4, 100.5)); // 2nd highest bid 100.4, 2nd lowest ask 100.5
    d.apply(q('okx', 99, 101.5));
    // bybit→binance: (100.4-100)/100 = 0.4 %;  binance→bybit: (101-100.5)/100.5 = 0.4975 %
    const best = d.best('BTC-USDT', NOW);
    expect(best).toMatchObject({ buyExchange: 'binance', sellExchange: 'bybit', buyPrice: 100.5, sellPrice: 101 });
    expect(best?.profitPercentAskBid).toBeCloseTo((0.5 / 100.5) * 100, 12);
  });

  it('a single exchange is never an opportunity', () => {
    const d = detector();
    d.apply(q('binance', 105, 100));
    expect(d.best('BTC-USDT', NOW)).toBeNull();
  });

  it('excludes stale quotes (older than 10 s)', () => {
    const d = detector();
    d.apply(q('binance', 99, 100));
    d.apply(q('okx', 101, 102, 10_001));
    expect(d.best('BTC-USDT', NOW)).toBeNull();
    d.apply(q('gate', 100.5, 101, 10_000)); // exactly 10 s old is still fresh
    expect(d.best('BTC-USDT', NOW)).toMatchObject({ buyExchange: 'binance', sellExchange: 'gate' });
  });

  it('a quote that turns stale ends the opportunity', () => {
    const d = detector();
    d.apply(q('binance', 99, 100));
    d.apply(q('okx', 101, 102));
    expect(d.best('BTC-USDT', NOW)).not.toBeNull();
    expect(d.best('BTC-USDT', NOW + 10_001)).toBeNull();
  });

  it('exactly at the threshold is not an opportunity; just above is', () => {
    const d = detector(0.5);
    d.apply(q('binance', 99, 100));
    d.apply(q('okx', 100.5, 101)); // exactly 0.5 %
    expect(d.best('BTC-USDT', NOW)).toBeNull();
    d.apply(q('okx', 100.5000001, 101));
    expect(d.best('BTC-USDT', NOW)).not.toBeNull();
  });

  it('breaks ties by exchange order, whatever the arrival order', () => {
    for (const order of [['gate', 'binance'], ['binance', 'gate']] as const) {
      const d = detector();
      for (const ex of order) d.apply(q(ex, 99, 100));
      d.apply(q('okx', 101, 102));
      expect(d.best('BTC-USDT', NOW)?.buyExchange).toBe('binance');
    }
  });

  it('keeps tickers apart and uses the latest quote per exchange', () => {
    const d = detector();
    d.apply(q('binance', 99, 100, 0, 'ETH-USDT'));
    d.apply(q('okx', 101, 102, 0, 'ETH-USDT'));
    expect(d.best('BTC-USDT', NOW)).toBeNull();
    d.apply(q('okx', 100, 100.1, 0, 'ETH-USDT'));
    expect(d.best('ETH-USDT', NOW)).toBeNull();
  });

  it('tiny prices keep full precision', () => {
    const d = detector();
    d.apply(q('binance', 0.000001, 0.0000012));
    d.apply(q('bitget', 0.0000013, 0.0000014));
    // (0.0000013 - 0.0000012) / 0.0000012 * 100 = 8.333… %
    expect(d.best('BTC-USDT', NOW)?.profitPercentAskBid).toBeCloseTo(8.3333333333, 8);
  });

  describe('route episodes', () => {
    const T = 1_800_000_000_000;
    const at = (exchange: ExchangeName, bid: number, ask: number, time: number) => ({ exchange, ticker: 'BTC-USDT', bid, ask, receivedAt: time });
    const tracked = () => {
      const closed: ClosedEpisode[] = [];
      const d = new ArbitrageDetector({ minProfitPercent: 0.1, staleMs: 10_000, onEpisodeClosed: (e) => closed.push(e) });
      return { d, closed };
    };

    it('reports each route opening and ending (order books wanted and released), an instant episode included', () => {
      const events: string[] = [];
      const d = new ArbitrageDetector({
        minProfitPercent: 0.1,
        staleMs: 10_000,
        onRouteOpened: (r, time, spread) => events.push(`open ${r.buyExchange}>${r.sellExchange} ${time - T} ${spread.toFixed(2)}`),
        onRouteEnded: (r, time) => events.push(`end ${r.buyExchange}>${r.sellExchange} ${time - T}`),
      });
      d.apply(at('binance', 99.9, 100, T));
      d.apply(at('okx', 100.3, 100.4, T + 100)); // 0.3 %: opens
      d.apply(at('okx', 100.5, 100.6, T + 200)); // still open: no second report
      d.apply(at('okx', 100, 100.1, T + 300)); // closes
      d.sweep(T + 20_000);
      expect(events).toEqual(['open binance>okx 100 0.30', 'end binance>okx 300']);
    });

    it('withdraw (a name collision): the quote leaves every route and its open episodes end then', () => {
      const { d, closed } = tracked();
      d.apply(at('binance', 99.9, 100, T));
      d.apply(at('okx', 100.5, 100.6, T + 100)); // binance → okx 0.5 %
      d.apply(at('gate', 100.3, 100.4, T + 200)); // binance → gate 0.3 %
      d.withdraw('okx', 'BTC-USDT', T + 300);
      expect(closed.map((e) => [e.sellExchange, e.closedAt])).toEqual([['okx', T + 300]]);
      // What is left: buy binance at 100, sell gate at 100.3.
      expect(d.best('BTC-USDT', T + 300)).toMatchObject({ buyExchange: 'binance', sellExchange: 'gate' });
      d.withdraw('okx', 'BTC-USDT', T + 400); // nothing left to withdraw: no second episode
      expect(closed).toHaveLength(1);
    });

    it('opens at the tick that takes the spread above the threshold and closes at the one that takes it back', () => {
      const { d, closed } = tracked();
      d.apply(at('binance', 99.9, 100, T));
      d.apply(at('okx', 100.05, 100.2, T + 100)); // 0.05 %: not above 0.1
      expect(d.openedAt('BTC-USDT', 'binance', 'okx')).toBeNull();
      d.apply(at('okx', 100.3, 100.4, T + 200)); // 0.3 %
      expect(d.openedAt('BTC-USDT', 'binance', 'okx')).toBe(T + 200);
      d.apply(at('okx', 100.5, 100.6, T + 300)); // 0.5 %: the peak
      d.apply(at('okx', 100.2, 100.3, T + 400)); // 0.2 %: still open, same episode
      expect(d.openedAt('BTC-USDT', 'binance', 'okx')).toBe(T + 200);
      d.apply(at('okx', 100.1, 100.2, T + 500)); // exactly 0.1 %: not above, closes
      expect(d.openedAt('BTC-USDT', 'binance', 'okx')).toBeNull();
      expect(closed).toEqual([{
        ticker: 'BTC-USDT', buyExchange: 'binance', sellExchange: 'okx', openedAt: T + 200, closedAt: T + 500,
        peakGrossPercent: expect.closeTo(0.5, 10) as number, peakBuyPrice: 100, peakSellPrice: 100.5,
        // The prices of the closing tick: what the history records as the route's last spread.
        closeBuyPrice: 100, closeSellPrice: 100.1,
      }]);
      // A new rise is a new episode.
      d.apply(at('binance', 99.7, 99.8, T + 600)); // (100.1 − 99.8) ÷ 99.8 = 0.3006 %
      expect(d.openedAt('BTC-USDT', 'binance', 'okx')).toBe(T + 600);
    });

    it('a tick on the buy side moves the route as one on the sell side does; the reverse route is separate', () => {
      const { d } = tracked();
      d.apply(at('okx', 100.3, 100.4, T));
      d.apply(at('binance', 99.9, 100, T + 50)); // binance → okx: 0.3 %
      expect(d.openedAt('BTC-USDT', 'binance', 'okx')).toBe(T + 50);
      expect(d.openedAt('BTC-USDT', 'okx', 'binance')).toBeNull();
    });

    it('a route whose quote goes stale without another tick is ended by the sweep at the moment it lapsed', () => {
      const { d, closed } = tracked();
      d.apply(at('binance', 99.9, 100, T));
      d.apply(at('okx', 100.5, 100.6, T + 1000));
      d.sweep(T + 10_000); // binance's quote is exactly 10 s old: still fresh
      expect(closed).toEqual([]);
      d.sweep(T + 10_500);
      // Lapsed, not priced: no closing prices.
      expect(closed).toMatchObject([{ openedAt: T + 1000, closedAt: T + 10_000, closeBuyPrice: null, closeSellPrice: null }]);
      expect(d.openedAt('BTC-USDT', 'binance', 'okx')).toBeNull();
    });

    it('a tick after its own side lapsed ends the old episode where it lapsed and opens a new one', () => {
      const { d, closed } = tracked();
      d.apply(at('binance', 99.9, 100, T));
      d.apply(at('okx', 100.5, 100.6, T + 1000));
      // No sweep ran; binance lapsed at T + 10 s; okx ticks at T + 12 s against a stale binance: closed, not reopened.
      d.apply(at('okx', 100.5, 100.6, T + 12_000));
      expect(closed).toMatchObject([{ openedAt: T + 1000, closedAt: T + 10_000 }]);
      expect(d.openedAt('BTC-USDT', 'binance', 'okx')).toBeNull();
      // binance comes back: a new episode from its tick.
      d.apply(at('binance', 99.9, 100, T + 13_000));
      expect(d.openedAt('BTC-USDT', 'binance', 'okx')).toBe(T + 13_000);
      expect(closed).toHaveLength(1);
    });

    it('an episode that closes at the instant it opened (two quotes of one batch) is not reported', () => {
      const { d, closed } = tracked();
      d.apply(at('binance', 99.9, 100, T));
      d.apply(at('okx', 100.5, 100.6, T + 100));
      d.apply(at('binance', 100.5, 100.6, T + 100));
      expect(d.openedAt('BTC-USDT', 'binance', 'okx')).toBeNull();
      expect(closed).toEqual([]);
    });

    it('the best opportunity\'s route is always open in the tracker', () => {
      const { d } = tracked();
      d.apply(at('binance', 99.9, 100, T));
      d.apply(at('okx', 100.2, 100.3, T + 10));
      d.apply(at('gate', 100.5, 100.6, T + 20));
      const best = d.best('BTC-USDT', T + 20);
      expect(best).toMatchObject({ buyExchange: 'binance', sellExchange: 'gate' });
      expect(d.openedAt('BTC-USDT', 'binance', 'gate')).toBe(T + 20);
      expect(d.openedAt('BTC-USDT', 'binance', 'okx')).toBe(T + 10);
      });

      it('a tick exactly at the threshold opens no episode, as it makes no opportunity (money policy)', () => {
        const { d } = tracked();
        d.apply(at('binance', 0.1199, 0.12, T));
        d.apply(at('okx', 0.12012, 0.1202, T + 10)); // 0.1 % exactly; 0.1000000000000075 in doubles
        expect(d.openedAt('BTC-USDT', 'binance', 'okx')).toBeNull();
        d.apply(at('okx', 0.12, 0.1202, T + 20));
        d.apply(at('binance', 0, 0, T + 30)); // a broken ask: no episode either
        expect(d.openedAt('BTC-USDT', 'binance', 'okx')).toBeNull();
      });
    });

  describe('money policy: the threshold is judged on the figure as emitted (8 decimals, half away from zero)', () => {
    it('a tick exactly at the threshold is not an opportunity (ask 0.12, bid 0.12012: 0.1 exactly, 0.1000000000000075 in doubles)', () => {
      const d = detector(0.1);
      d.apply(q('binance', 0.1199, 0.12));
      d.apply(q('okx', 0.12012, 0.1202));
      expect(((0.12012 - 0.12) / 0.12) * 100).toBeGreaterThan(0.1);
      expect(d.best('BTC-USDT', NOW)).toBeNull();
    });

    it('0.100000005 % rounds to 0.10000001 and is one; 0.100000004 % rounds to 0.1 and is not', () => {
      // (9.9799700004985 − 9.97) ÷ 9.97 × 100 = 0.100000005 exactly
      const above = detector(0.1);
      above.apply(q('binance', 9.96, 9.97));
      above.apply(q('okx', 9.9799700004985, 9.99));
      const o = above.best('BTC-USDT', NOW);
      expect(o).not.toBeNull();
      expect(profitPercentOf(o?.buyPrice ?? 0, o?.sellPrice ?? 0)).toBe(0.10000001);
      // (9.9799700003988 − 9.97) ÷ 9.97 × 100 = 0.100000004
      const at = detector(0.1);
      at.apply(q('binance', 9.96, 9.97));
      at.apply(q('okx', 9.9799700003988, 9.99));
      expect(at.best('BTC-USDT', NOW)).toBeNull();
    });

    it('the emitted figure is decimal, rounded once: 0.3, not 0.29999999999999716', () => {
      // (100.3 − 100) ÷ 100 × 100 = 0.3
      expect(((100.3 - 100) / 100) * 100).toBe(0.29999999999999716);
      expect(profitPercentOf(100, 100.3)).toBe(0.3);
      // (64150.5 − 64000.1) ÷ 64000.1 × 100 = 0.23499963281307… → 0.23499963
      expect(profitPercentOf(64000.1, 64150.5)).toBe(0.23499963);
    });

    it('zero and tiny spreads against a threshold of 0: 0.000000004 % shows 0 and is not one; 0.000000005 % is', () => {
      const zero = detector(0);
      zero.apply(q('binance', 99, 100));
      zero.apply(q('okx', 100, 101));
      expect(zero.best('BTC-USDT', NOW)).toBeNull(); // bid 100 − ask 100 = 0
      // (100.000000004 − 100) ÷ 100 × 100 = 0.000000004 → 0
      const tiny = detector(0);
      tiny.apply(q('binance', 99, 100));
      tiny.apply(q('okx', 100.000000004, 101));
      expect(tiny.best('BTC-USDT', NOW)).toBeNull();
      const half = detector(0);
      half.apply(q('binance', 99, 100));
      half.apply(q('okx', 100.000000005, 101));
      expect(half.best('BTC-USDT', NOW)).not.toBeNull();
      expect(profitPercentOf(100, 100.000000005)).toBe(0.00000001);
    });

    it('negative spreads never qualify and round half away from zero; huge ones are emitted as computed', () => {
      expect(profitPercentOf(100, 99.999999995)).toBe(-0.00000001);
      expect(Object.is(profitPercentOf(100, 99.999999996), 0)).toBe(true);
      // (1 − 1e-8) ÷ 1e-8 × 100 = 9,999,999,900 %
      const d = detector();
      d.apply(q('binance', 1e-9, 1e-8));
      d.apply(q('okx', 1, 2));
      expect(d.best('BTC-USDT', NOW)).toMatchObject({ buyPrice: 1e-8, sellPrice: 1 });
      expect(profitPercentOf(1e-8, 1)).toBe(9_999_999_900);
    });

    it('a broken quote (an ask of 0, or so small the spread overflows a double) is not an opportunity', () => {
      const d = detector();
      d.apply(q('binance', 0, 0));
      d.apply(q('okx', 1, 2));
      expect(d.best('BTC-USDT', NOW)).toBeNull();
      const tiny = detector();
      tiny.apply(q('binance', 0, 1e-310));
      tiny.apply(q('okx', 1, 2));
      expect(tiny.best('BTC-USDT', NOW)).toBeNull();
    });
  });
});
