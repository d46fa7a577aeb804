/**
 * Counts spot/futures crossings of one (ticker, exchange) series (rules: crossing-counts).
 *
 * Incremental on purpose: the job feeds a day's samples one at a time as keyset pages arrive, so
 * a group never has to be held in memory, let alone a whole day.
 */

/** The side of the futures price the spot price is on: +1 above, -1 below, 0 equal (a touch). */
export type Side = -1 | 0 | 1;

/** The four best prices of one recorded sample (rules: recorders). */
export interface SamplePrices {
  spotBid: number;
  spotAsk: number;
  futuresBid: number;
  futuresAsk: number;
}

/** The `funding` rule: the price of a market for the sign test is its mid. */
export function midOf(bid: number, ask: number): number {
  return (bid + ask) / 2;
}

/**
 * The sign of (spotMid − futureMid), by comparison rather than by the sign of a subtraction so
 * the rule reads as the spec states it; for finite doubles both agree, tiny differences included.
 */
export function sideOf(spotMid: number, futureMid: number): Side {
  if (spotMid > futureMid) return 1;
  if (spotMid < futureMid) return -1;
  return 0;
}

export class CrossingCounter {
  /** The last non-zero side seen; 0 until the series first leaves equality. */
  private lastSide: Side = 0;
  private crossings = 0;

  get count(): number {
    return this.crossings;
  }

  /**
   * A touch (equal mids) never counts by itself and does not reset the side: +,0,− is one
   * crossing and +,0,+ none. Leading touches take no side, so the first real side is not a
   * crossing. A sample with a non-finite price carries no information and is skipped.
   */
  addMids(spotMid: number, futureMid: number): void {
    if (!Number.isFinite(spotMid) || !Number.isFinite(futureMid)) return;
    const side = sideOf(spotMid, futureMid);
    if (side === 0) return;
    if (this.lastSide !== 0 && side !== this.lastSide) this.crossings++;
    this.lastSide = side;
  }

  addSample(s: SamplePrices): void {
    this.addMids(midOf(s.spotBid, s.spotAsk), midOf(s.futuresBid, s.futuresAsk));
  }
}

/** The whole-series form, for callers (and specs) that already hold one group's samples. */
export function countCrossings(samples: Iterable<SamplePrices>): number {
  const counter = new CrossingCounter();
  for (const s of samples) counter.addSample(s);
  return counter.count;
}
