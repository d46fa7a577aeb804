import { describe, expect, it } from 'vitest';
import { CrossingCounter, countCrossings, midOf, type SamplePrices, sideOf } from './crossing.engine.js';

/** A sample whose spot mid is `spot` and futures mid is `future` (1-wide books around each mid). */
const at = (spot: number, future: number): SamplePrices => ({
  spotBid: spot - 0.5,
  spotAsk: spot + 0.5,
  futuresBid: future - 0.5,
  futuresAsk: future + 0.5,
});

/** A series from the sides alone: + is spot 101 over futures 100, − the reverse, 0 both 100. */
const series = (sides: string): SamplePrices[] =>
  [...sides].map((c) => (c === '+' ? at(101, 100) : c === '-' ? at(100, 101) : at(100, 100)));

describe('crossing engine (rules: crossing-counts)', () => {
  it('no samples: 0', () => {
    expect(countCrossings([])).toBe(0);
  });

  it('one sample: 0, whatever its side', () => {
    expect(countCrossings(series('+'))).toBe(0);
    expect(countCrossings(series('-'))).toBe(0);
    expect(countCrossings(series('0'))).toBe(0);
  });

  it('equal prices at the start take no side: 0,0,+ is 0 and 0,0,+,− is 1', () => {
    expect(countCrossings(series('00+'))).toBe(0);
    expect(countCrossings(series('00-'))).toBe(0);
    expect(countCrossings(series('00+-'))).toBe(1);
  });

  it('only equal prices: 0', () => {
    expect(countCrossings(series('0000'))).toBe(0);
  });

  it('a touch that does not reverse: +,0,+ is 0 (and −,0,− is 0)', () => {
    expect(countCrossings(series('+0+'))).toBe(0);
    expect(countCrossings(series('-0-'))).toBe(0);
  });

  it('a touch that reverses: +,0,− is 1 (and −,0,+ is 1)', () => {
    expect(countCrossings(series('+0-'))).toBe(1);
    expect(countCrossings(series('-0+'))).toBe(1);
  });

  it('a touch at the end is not a crossing yet: +,0 is 0', () => {
    expect(countCrossings(series('+0'))).toBe(0);
  });

  it('a run of touches between opposite sides is one crossing: +,0,0,0,− is 1', () => {
    expect(countCrossings(series('+000-'))).toBe(1);
    expect(countCrossings(series('+000+'))).toBe(0);
  });

  it('a direct reversal without a touch counts: +,− is 1', () => {
    expect(countCrossings(series('+-'))).toBe(1);
  });

  it('many reversals: +,−,+,−,+ is 4; +,+,−,−,0,+,0,0,+,− is 3', () => {
    expect(countCrossings(series('+-+-+'))).toBe(4);
    // + + | − − 0 | + 0 0 + | −  → reversals at positions 3, 6 and 10.
    expect(countCrossings(series('++--0+00+-'))).toBe(3);
  });

  it('tiny differences still have a side: 1e-9 above, then 1e-9 below, is 1', () => {
    const s = [at(30000.000000001, 30000), at(30000, 30000), at(29999.999999999, 30000)];
    expect(countCrossings(s)).toBe(1);
    expect(sideOf(0.1 + 0.2, 0.3)).toBe(1); // 0.30000000000000004 > 0.3 in doubles: a side, not a touch
  });

  it('the side is taken from mids, not from bids or asks (rules: funding)', () => {
    // Spot 99/103 (mid 101) vs futures 100/101 (mid 100.5): spot above, though its bid is below.
    const above: SamplePrices = { spotBid: 99, spotAsk: 103, futuresBid: 100, futuresAsk: 101 };
    // Spot 100/100.4 (mid 100.2) vs futures 99/102 (mid 100.5): spot below, though its bid is above.
    const below: SamplePrices = { spotBid: 100, spotAsk: 100.4, futuresBid: 99, futuresAsk: 102 };
    expect(midOf(99, 103)).toBe(101);
    expect(countCrossings([above, below, above])).toBe(2);
  });

  it('skips a sample with a non-finite price instead of reading it as a touch or a side', () => {
    const broken: SamplePrices = { spotBid: Number.NaN, spotAsk: 1, futuresBid: 1, futuresAsk: 1 };
    expect(countCrossings([at(101, 100), broken, at(100, 101)])).toBe(1);
    expect(countCrossings([at(101, 100), broken, at(101, 100)])).toBe(0);
  });

  it('is incremental: feeding page by page gives the same count as the whole series', () => {
    const whole = series('+-0+00-++-0-+');
    const counter = new CrossingCounter();
    for (let i = 0; i < whole.length; i += 3) whole.slice(i, i + 3).forEach((s) => counter.addSample(s));
    expect(counter.count).toBe(countCrossings(whole));
    // Sides without touches: + − + − + + − − +, i.e. 6 reversals.
    expect(counter.count).toBe(6);
  });
});
