import { Dec, roundAmount, roundPercent, roundPrice } from '../common/money/money.js';
import type { BookLevel, FlatLevels } from '../market-data/depth/depth-book.js';
import { DEFAULT_TAKER_FEE_PERCENT, DEFAULT_WITHDRAWAL_FEE_USD } from '../market-data/route-costs.js';

/*
 * A route priced at a size: the buy leg walks the buy exchange's asks with a USDT notional, the
 * sell leg sells the quantity bought into the sell exchange's bids. Every figure is computed in
 * decimal and rounded once at the edge under the service's one money rule (README "Money and
 * percent figures"); doubles only rule out the parts of the books the size search need not solve.
 *
 * The net spread at a fill uses the rule of the event's `netProfitPercent`, with the average
 * prices for the two prices and the filled notional for the reference:
 *   net % = (sellAvg − buyAvg) ÷ buyAvg × 100 − buy fee % − sell fee % − withdrawal USD ÷ filled × 100,
 * withdrawal USD = fee in base units × buyAvg (the default 1 USD when the fee is unknown).
 * With N the USDT spent, Q the quantity bought and S the USDT the bids pay for it, that is
 *   net % = (S − N) ÷ N × 100 − fees − (w ÷ Q or 1 USD ÷ N) × 100.
 */

/** Either form: tuples (as the API and the tests write them) or flat pairs (as books are held). */
export type DepthLevels = readonly BookLevel[] | FlatLevels;

/** The flat form of either; flat levels are returned as they are. */
export function flatLevels(levels: DepthLevels): FlatLevels {
  if (levels.length === 0 || typeof levels[0] === 'number') return levels as FlatLevels;
  const out: number[] = [];
  for (const [price, qty] of levels as readonly BookLevel[]) out.push(price, qty);
  return out;
}

export interface DepthWalkInput {
  /** The buy exchange's asks, best first. */
  asks: DepthLevels;
  /** The sell exchange's bids, best first. */
  bids: DepthLevels;
  /** USDT to spend on the buy leg. */
  notionalUsdt: number;
  /** Taker fee in percent; undefined: unknown, the default 0.1 % applies. */
  buyFeePercent: number | undefined;
  sellFeePercent: number | undefined;
  /** Withdrawal fee in base units; null: unknown, the default 1 USD applies. */
  withdrawalFee: number | null;
  /** `maxSizeUsdt` is the largest notional whose net spread stays at or above this (percent). */
  minNetPercent: number;
}

export interface DepthWalk {
  notionalUsdt: number;
  /** USDT spent ÷ quantity bought; null when nothing fills (an empty book). */
  buyAvgPrice: number | null;
  /** USDT received ÷ quantity sold; null when nothing fills. */
  sellAvgPrice: number | null;
  /** USDT the two books can take up to the notional: less when either runs out. */
  filledUsdt: number;
  /** Net spread at the fill; null when nothing fills. */
  netProfitPercent: number | null;
  /** Largest notional whose net spread is at or above `minNetPercent`; 0 when none is. */
  maxSizeUsdt: number;
}

/**
 * A stretch of the two books over which both prices stay the same: buying `qty` more at `ask`
 * and selling it at `bid`. Starts after `n0` USDT spent, `q0` bought and `s0` received.
 */
interface Segment {
  ask: Dec;
  bid: Dec;
  qty: Dec;
  n0: Dec;
  q0: Dec;
  s0: Dec;
}

const ZERO = new Dec(0);

/** Prices the route at the notional and solves its largest size. O(levels of both books). */
export function walkDepth(given: DepthWalkInput): DepthWalk {
  const input: FlatInput = { ...given, asks: flatLevels(given.asks), bids: flatLevels(given.bids) };
  const segments = new DecimalSegments(input.asks, input.bids);
  const fill = fillAt(segments, new Dec(input.notionalUsdt));
  const costs = costTerms(input);
  const empty = fill.q.isZero();
  return {
    notionalUsdt: input.notionalUsdt,
    buyAvgPrice: empty ? null : roundPrice(fill.n.div(fill.q)),
    sellAvgPrice: empty ? null : roundPrice(fill.s.div(fill.q)),
    filledUsdt: roundAmount(fill.n),
    netProfitPercent: empty ? null : roundPercent(netPercent(fill, costs)),
    maxSizeUsdt: roundAmount(maxSize(segments, input, costs)),
  };
}

/** The walk's input with both sides flat. */
type FlatInput = Omit<DepthWalkInput, 'asks' | 'bids'> & { asks: FlatLevels; bids: FlatLevels };

/** The cost side of the net rule: both taker fees, and the withdrawal fee as base units or USD. */
interface CostTerms {
  feesPercent: Dec;
  /** Withdrawal fee in base units (0 when it is charged in USD). */
  baseFee: Dec;
  /** Withdrawal fee in USD (0 when it is charged in base units). */
  usdFee: Dec;
}

function costTerms(input: FlatInput): CostTerms {
  const feesPercent = new Dec(input.buyFeePercent ?? DEFAULT_TAKER_FEE_PERCENT).plus(input.sellFeePercent ?? DEFAULT_TAKER_FEE_PERCENT);
  return input.withdrawalFee === null
    ? { feesPercent, baseFee: ZERO, usdFee: new Dec(DEFAULT_WITHDRAWAL_FEE_USD) }
    : { feesPercent, baseFee: new Dec(input.withdrawalFee), usdFee: ZERO };
}

interface Fill {
  n: Dec;
  q: Dec;
  s: Dec;
}

function netPercent({ n, q, s }: Fill, c: CostTerms): Dec {
  const withdrawalUsd = c.baseFee.times(n).div(q).plus(c.usdFee);
  return s.minus(n).minus(withdrawalUsd).div(n).times(100).minus(c.feesPercent);
}

/** Levels on a side. */
const countOf = (levels: FlatLevels): number => levels.length >> 1;

/** Level k's price. */
const priceAt = (levels: FlatLevels, k: number): number => levels[2 * k];

/** Level k's quantity, or 0 for a level that cannot be traded (no size, no price, not a number, past the end). */
function usableQty(levels: FlatLevels, k: number): number {
  const price = levels[2 * k];
  const qty = levels[2 * k + 1];
  return Number.isFinite(price) && Number.isFinite(qty) && price > 0 && qty > 0 ? qty : 0;
}

/**
 * The two books merged level by level into segments of constant prices (levels with no size
 * skipped), in decimal, built only as deep as they are read: the fill at a small notional reads
 * the first few, the size search the one it lands on and those before it. Each segment also
 * names the ask and bid levels it is made of, to check it against the doubles' merge.
 */
class DecimalSegments {
  private readonly built: (Segment & { i: number; j: number })[] = [];
  private i = 0;
  private j = 0;
  private askLeft = ZERO;
  private bidLeft = ZERO;
  private ask = ZERO;
  private bid = ZERO;
  private n0 = ZERO;
  private q0 = ZERO;
  private s0 = ZERO;
  private exhausted = false;

  constructor(private readonly asks: FlatLevels, private readonly bids: FlatLevels) {}

  /** Segment `k`, or undefined past the end of either book. */
  at(k: number): (Segment & { i: number; j: number }) | undefined {
    while (this.built.length <= k && !this.exhausted) this.next();
    return this.built[k];
  }

  private next(): void {
    while (this.askLeft.isZero() && this.i < countOf(this.asks)) {
      const q = usableQty(this.asks, this.i++);
      if (q > 0) {
        this.askLeft = new Dec(q);
        this.ask = new Dec(priceAt(this.asks, this.i - 1));
      }
    }
    while (this.bidLeft.isZero() && this.j < countOf(this.bids)) {
      const q = usableQty(this.bids, this.j++);
      if (q > 0) {
        this.bidLeft = new Dec(q);
        this.bid = new Dec(priceAt(this.bids, this.j - 1));
      }
    }
    if (this.askLeft.isZero() || this.bidLeft.isZero()) {
      this.exhausted = true;
      return;
    }
    const { ask, bid, n0, q0, s0 } = this;
    const qty = Dec.min(this.askLeft, this.bidLeft);
    this.built.push({ ask, bid, qty, n0, q0, s0, i: this.i - 1, j: this.j - 1 });
    this.n0 = n0.plus(ask.times(qty));
    this.q0 = q0.plus(qty);
    this.s0 = s0.plus(bid.times(qty));
    this.askLeft = this.askLeft.minus(qty);
    this.bidLeft = this.bidLeft.minus(qty);
  }
}

/** Spends up to `notional` along the segments; stops early where either book runs out. */
function fillAt(segments: DecimalSegments, notional: Dec): Fill {
  let fill: Fill = { n: ZERO, q: ZERO, s: ZERO };
  for (let k = 0; ; k++) {
    const seg = segments.at(k);
    if (!seg) return fill;
    const cost = seg.ask.times(seg.qty);
    const end = seg.n0.plus(cost);
    if (end.gte(notional)) {
      const x = notional.minus(seg.n0).div(seg.ask);
      return { n: notional, q: seg.q0.plus(x), s: seg.s0.plus(seg.bid.times(x)) };
    }
    fill = { n: end, q: seg.q0.plus(seg.qty), s: seg.s0.plus(seg.bid.times(seg.qty)) };
  }
}

/**
 * The largest notional whose exact net spread is at or above `minNet`, solved exactly segment by
 * segment (no bisection). The net spread is not monotonic in the size: a fixed withdrawal fee
 * weighs less as the size grows while the average prices worsen. Multiplying `net ≥ minNet` by
 * N × Q (both positive) turns it into h(x) = A x² + B x + C ≥ 0 over a segment, x the quantity
 * bought within it; the segments are searched from the deepest, and the first one where h is
 * non-negative somewhere gives the answer at its largest such x (the segment's end, or the
 * largest root of h inside it).
 *
 * Doubles skip the segments where h is certainly negative throughout (its maximum below zero by
 * far more than the doubles' error); decimal decides the first segment they cannot rule out,
 * and, should it rule it out after all, the ones before it. The answer is decimal's, at the cost
 * of one segment's decimal solve instead of one per segment.
 */
function maxSize(segments: DecimalSegments, input: FlatInput, c: CostTerms): Dec {
  // k = 1 + (minNet + fees) ÷ 100; net ≥ minNet ⇔ S Q − w N − u Q − k N Q ≥ 0.
  const k = new Dec(input.minNetPercent).plus(c.feesPercent).div(100).plus(1);
  const screened = screen(input);
  let from: number | null = null;
  if (screened !== null) {
    if (screened.index < 0) return ZERO;
    const { i, j } = screened.segments[screened.index];
    // The segment the doubles landed on, straight from the levels before it (no merge).
    const direct = segmentAt(input.asks, input.bids, i, j);
    const x = direct && largestFeasible(direct, c, k);
    if (direct && x) return direct.n0.plus(direct.ask.times(x));
    // Decimal rules it out after all (or the doubles merged the levels differently): the ones before it, by the merge.
    if (direct) from = indexOf(segments, i, j) - 1;
  }
  for (let index = from ?? lastIndex(segments); index >= 0; index--) {
    const seg = segments.at(index);
    if (!seg) continue;
    const x = largestFeasible(seg, c, k);
    if (x !== null) return seg.n0.plus(seg.ask.times(x));
  }
  return ZERO;
}

function lastIndex(segments: DecimalSegments): number {
  let k = 0;
  while (segments.at(k)) k++;
  return k - 1;
}

/** The merge's index of the segment made of ask level `i` and bid level `j`. */
function indexOf(segments: DecimalSegments, i: number, j: number): number {
  for (let k = 0; ; k++) {
    const seg = segments.at(k);
    if (!seg) return k;
    if (seg.i === i && seg.j === j) return k;
  }
}

/**
 * The merge's segment of ask level `i` and bid level `j`, from the levels before them: it starts
 * where the later of the two starts (in quantity) and ends where the earlier ends; null when the
 * two levels do not overlap. Same figures as the merge (every sum and product here is exact).
 */
function segmentAt(asks: FlatLevels, bids: FlatLevels, i: number, j: number): Segment | null {
  const askQty = usableQty(asks, i);
  const bidQty = usableQty(bids, j);
  if (askQty === 0 || bidQty === 0) return null;
  const a = levelsBefore(asks, i);
  const b = levelsBefore(bids, j);
  const q0 = Dec.max(a.qty, b.qty);
  const qty = Dec.min(a.qty.plus(askQty), b.qty.plus(bidQty)).minus(q0);
  if (qty.lte(0)) return null;
  const ask = new Dec(priceAt(asks, i));
  const bid = new Dec(priceAt(bids, j));
  return { ask, bid, qty, q0, n0: a.notional.plus(ask.times(q0.minus(a.qty))), s0: b.notional.plus(bid.times(q0.minus(b.qty))) };
}

/** The usable quantity and notional of levels 0 … end − 1, exact (docs/rules.md, `depth-walk`). Exported for its tests. */
export function levelsBefore(given: DepthLevels, end: number): { qty: Dec; notional: Dec } {
  const levels = flatLevels(given);
  return scaledBefore(levels, end) ?? decimalBefore(levels, end);
}

/** Level by level in decimal: any level, any size. */
function decimalBefore(levels: FlatLevels, end: number): { qty: Dec; notional: Dec } {
  let qty = ZERO;
  let notional = ZERO;
  for (let x = 0; x < end; x++) {
    const q = usableQty(levels, x);
    if (q === 0) continue;
    const dq = new Dec(q);
    qty = qty.plus(dq);
    notional = notional.plus(dq.times(priceAt(levels, x)));
  }
  return { qty, notional };
}

/** `int` × 10^−`scale`: a decimal held as a safe integer and a power of ten. */
interface Scaled {
  int: number;
  scale: number;
}

/**
 * The same two sums with each price and quantity as a scaled integer (`scaledOf`). Products and
 * sums of safe integers are exact in doubles while the result stays a safe integer, so the sums
 * are exact and only they become decimal. Every term passes through `addScaled`, which refuses anything that is not a safe
 * integer (a huge or very precise level, a text with an exponent): then null, and the decimal
 * path takes over. Real books stay well inside.
 */
function scaledBefore(levels: FlatLevels, end: number): { qty: Dec; notional: Dec } | null {
  let qty: Scaled | null = { int: 0, scale: 0 };
  let notional: Scaled | null = { int: 0, scale: 0 };
  for (let x = 0; x < end && qty && notional; x++) {
    const q = usableQty(levels, x);
    if (q === 0) continue;
    const sq = scaledOf(q);
    const sp = scaledOf(priceAt(levels, x));
    qty = addScaled(qty, sq);
    notional = addScaled(notional, { int: sq.int * sp.int, scale: sq.scale + sp.scale });
  }
  return qty && notional ? { qty: toDec(qty), notional: toDec(notional) } : null;
}

/** Decimals with at most this many significant digits survive a trip through a double unchanged (DBL_DIG). */
const EXACT_DIGITS = 1e15;

/**
 * The decimal `new Dec(x)` reads (the double's shortest text) as an integer and a power of ten,
 * without the text: the fewest decimals d whose rounded x × 10^d divides back to x. Below 10^15
 * that decimal is the only one of at most 15 digits that becomes x, so it is the shortest text's.
 * Past it, `int` is no safe integer (NaN) and the decimal path takes over.
 */
function scaledOf(x: number): Scaled {
  for (let scale = 0, p = 1; scale <= 22; scale++, p *= 10) {
    const int = Math.round(x * p);
    if (int >= EXACT_DIGITS) break;
    if (int / p === x) return { int, scale };
  }
  return { int: Number.NaN, scale: 0 };
}

/**
 * a + b at the finer scale; null unless b's term and the sum are safe integers there (then every
 * step was exact). Both are non-negative, so a term past a safe integer makes the sum one too; a
 * fraction (1e-7 has no point to take out) could vanish in the sum, hence b's own check.
 */
function addScaled(a: Scaled, b: Scaled): Scaled | null {
  const scale = Math.max(a.scale, b.scale);
  const x = a.int * 10 ** (scale - a.scale);
  const y = b.int * 10 ** (scale - b.scale);
  const sum = x + y;
  return Number.isSafeInteger(y) && Number.isSafeInteger(sum) ? { int: sum, scale } : null;
}

function toDec({ int, scale }: Scaled): Dec {
  return scale === 0 ? new Dec(int) : new Dec(`${int}e-${scale}`);
}

/** A segment in doubles, for the screen only. */
interface FastSegment {
  ask: number;
  bid: number;
  qty: number;
  n0: number;
  q0: number;
  s0: number;
  i: number;
  j: number;
}

/** Relative margin below which doubles call h certainly negative: far above their error over a few dozen levels. */
const SCREEN_MARGIN = 1e-9;

/**
 * The deepest segment (in the doubles' merge) where h may be non-negative; `index` -1 when h is
 * certainly negative everywhere; null when the doubles cannot tell anything (a non-finite term).
 */
function screen(input: FlatInput): { segments: FastSegment[]; index: number } | null {
  const { asks, bids } = input;
  const segs: FastSegment[] = [];
  let i = 0;
  let j = 0;
  let askLeft = 0;
  let bidLeft = 0;
  let n0 = 0;
  let q0 = 0;
  let s0 = 0;
  for (;;) {
    while (askLeft === 0 && i < countOf(asks)) askLeft = usableQty(asks, i++);
    while (bidLeft === 0 && j < countOf(bids)) bidLeft = usableQty(bids, j++);
    if (askLeft === 0 || bidLeft === 0) break;
    const ask = priceAt(asks, i - 1);
    const bid = priceAt(bids, j - 1);
    const qty = Math.min(askLeft, bidLeft);
    segs.push({ ask, bid, qty, n0, q0, s0, i: i - 1, j: j - 1 });
    n0 += ask * qty;
    q0 += qty;
    s0 += bid * qty;
    // Exactly zero for the side that set qty; the other keeps its rest.
    askLeft = askLeft === qty ? 0 : askLeft - qty;
    bidLeft = bidLeft === qty ? 0 : bidLeft - qty;
  }
  const fees = (input.buyFeePercent ?? DEFAULT_TAKER_FEE_PERCENT) + (input.sellFeePercent ?? DEFAULT_TAKER_FEE_PERCENT);
  const baseFee = input.withdrawalFee ?? 0;
  const usdFee = input.withdrawalFee === null ? DEFAULT_WITHDRAWAL_FEE_USD : 0;
  const k = 1 + (input.minNetPercent + fees) / 100;
  if (!Number.isFinite(k) || !Number.isFinite(baseFee)) return null;
  for (let index = segs.length - 1; index >= 0; index--) {
    const { ask, bid, qty, n0: n, q0: q, s0: s } = segs[index];
    const a = bid - k * ask;
    const b = s + bid * q - baseFee * ask - usdFee - k * (n + ask * q);
    const cc = s * q - baseFee * n - usdFee * q - k * n * q;
    // Every term's magnitude at the segment's end: the scale of the doubles' error in h.
    const scale = (Math.abs(bid) + Math.abs(k * ask)) * qty * qty
      + (Math.abs(s) + Math.abs(bid * q) + Math.abs(baseFee * ask) + usdFee + Math.abs(k * n) + Math.abs(k * ask * q)) * qty
      + Math.abs(s * q) + Math.abs(baseFee * n) + Math.abs(usdFee * q) + Math.abs(k * n * q);
    if (!Number.isFinite(scale)) return null;
    const h = (x: number): number => (a * x + b) * x + cc;
    let peak = Math.max(cc, h(qty));
    const vertex = a < 0 ? -b / (2 * a) : NaN;
    if (vertex > 0 && vertex < qty) peak = Math.max(peak, h(vertex));
    if (!(peak < -SCREEN_MARGIN * (scale + 1))) return { segments: segs, index };
  }
  return { segments: segs, index: -1 };
}

function largestFeasible(seg: Segment, c: CostTerms, k: Dec): Dec | null {
  const { ask, bid, n0, q0, s0 } = seg;
  const a = bid.minus(k.times(ask));
  const b = s0.plus(bid.times(q0)).minus(c.baseFee.times(ask)).minus(c.usdFee).minus(k.times(n0.plus(ask.times(q0))));
  const cc = s0.times(q0).minus(c.baseFee.times(n0)).minus(c.usdFee.times(q0)).minus(k.times(n0).times(q0));
  const h = (x: Dec): Dec => a.times(x).plus(b).times(x).plus(cc);
  if (h(seg.qty).gte(0)) return seg.qty;
  // h(end) < 0: the answer, if any, is the largest root inside the segment (h turns negative there).
  const roots = rootsOf(a, b, cc).filter((r) => r.gte(0) && r.lt(seg.qty));
  return roots.length === 0 ? null : Dec.max(...roots);
}

function rootsOf(a: Dec, b: Dec, c: Dec): Dec[] {
  if (a.isZero()) return b.isZero() ? [] : [c.neg().div(b)];
  const disc = b.times(b).minus(a.times(c).times(4));
  if (disc.lt(0)) return [];
  const root = disc.sqrt();
  return [b.neg().plus(root).div(a.times(2)), b.neg().minus(root).div(a.times(2))];
}
