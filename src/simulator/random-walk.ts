import { EXCHANGE_NAMES, MARKETS } from '../market-model/exchanges.js';
import { roundToStep, type Instrument } from './instruments.js';
import type { MarketState } from './market-state.js';

export type Rng = () => number;

/** The venue whose spot mid a ticker's walk starts from: the first of the registry, any would do. */
const REFERENCE_VENUE = EXCHANGE_NAMES[0];

/** Small, seedable PRNG (mulberry32) so that walks are reproducible in tests. */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface WalkOptions {
  /** Per-step volatility of the shared fair price (relative). */
  volatility?: number;
  /** Chance per ticker and step that one exchange's spot dislocates by 0.12–0.40 %. */
  dislocationChance?: number;
  /**
   * Share of those dislocations that are large (0.6–1.5 %), wide enough to pay both taker fees
   * and a withdrawal: the demo's tradeable routes. 0 (the default) keeps every one small.
   */
  largeDislocationShare?: number;
}

const DEFAULT_VOLATILITY = 0.0002;
const DEFAULT_DISLOCATION_CHANCE = 0.01;
// Offsets decay towards the fair price so that spreads close again, as arbitrage would close them.
const OFFSET_DECAY = 0.85;
const OFFSET_NOISE = 0.00005;

/**
 * Random walk over every simulated market: one fair price per ticker moves geometrically; each
 * (exchange, market) sits at a small, decaying offset from it, with occasional dislocations of
 * one exchange's spot large enough (> 0.1 %) to show up as cross-exchange opportunities.
 */
export class RandomWalk {
  private readonly fair = new Map<string, number>();
  private readonly offsets = new Map<string, number>();
  private readonly volatility: number;
  private readonly dislocationChance: number;
  private readonly largeDislocationShare: number;
  private timer: NodeJS.Timeout | undefined;
  private interval: number | undefined;
  private held: ReadonlySet<string> = new Set();

  constructor(private readonly state: MarketState, private readonly rng: Rng, options: WalkOptions = {}) {
    this.volatility = options.volatility ?? DEFAULT_VOLATILITY;
    this.dislocationChance = options.dislocationChance ?? DEFAULT_DISLOCATION_CHANCE;
    this.largeDislocationShare = options.largeDislocationShare ?? 0;
  }

  get running(): boolean {
    return this.timer !== undefined;
  }

  get intervalMs(): number | undefined {
    return this.interval;
  }

  start(intervalMs: number): void {
    this.stop();
    this.interval = intervalMs;
    this.timer = setInterval(() => this.step(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Tickers the walk leaves where they are (quotes and books set through the control API stay). */
  get holding(): readonly string[] {
    return [...this.held];
  }

  /** Replaces the held tickers; an empty list lets the walk move every ticker again. */
  hold(tickers: readonly string[]): void {
    this.held = new Set(tickers);
  }

  /** One step for every ticker not held; each of its markets gets a fresh quote. */
  step(now = Date.now()): void {
    for (const instrument of this.state.instruments) {
      if (!this.held.has(instrument.ticker)) this.stepInstrument(instrument, now);
    }
  }

  private stepInstrument(i: Instrument, now: number): void {
    const previous = this.fair.get(i.ticker) ?? this.currentMid(i);
    const fair = previous * Math.exp(this.volatility * this.gaussian());
    this.fair.set(i.ticker, fair);
    const dislocated = this.rng() < this.dislocationChance
      ? EXCHANGE_NAMES[Math.floor(this.rng() * EXCHANGE_NAMES.length)]
      : undefined;
    for (const exchange of EXCHANGE_NAMES) {
      for (const market of MARKETS) {
        const k = `${exchange}|${market}|${i.ticker}`;
        let offset = (this.offsets.get(k) ?? 0) * OFFSET_DECAY + OFFSET_NOISE * this.gaussian();
        if (market === 'SPOT' && exchange === dislocated) offset = this.dislocation();
        this.offsets.set(k, offset);
        this.applyQuote(i, exchange, market, fair * (1 + offset), now);
      }
    }
  }

  private applyQuote(i: Instrument, exchange: (typeof EXCHANGE_NAMES)[number], market: (typeof MARKETS)[number], mid: number, now: number): void {
    const current = this.state.get(exchange, market, i.ticker);
    if (!current) return;
    const halfSpread = i.tick * (1 + Math.floor(this.rng() * 3));
    const bid = Math.max(i.tick, roundToStep(mid - halfSpread, i.tick));
    const ask = Math.max(bid + i.tick, roundToStep(mid + halfSpread, i.tick));
    const size = (): number => Math.max(i.lotStep, roundToStep((10_000 + this.rng() * 40_000) / mid, i.lotStep));
    const volume = current.volume * (1 + 0.001 * this.gaussian());
    this.state.apply({ exchange, market, ticker: i.ticker, bid, ask: roundToStep(ask, i.tick), bidQty: size(), askQty: size(), volume }, now);
  }

  /** A signed relative offset: 0.12–0.40 %, or 0.6–1.5 % for the large share. */
  private dislocation(): number {
    const sign = this.rng() < 0.5 ? -1 : 1;
    const large = this.largeDislocationShare > 0 && this.rng() < this.largeDislocationShare;
    return sign * (large ? 0.006 + this.rng() * 0.009 : 0.0012 + this.rng() * 0.0028);
  }

  private currentMid(i: Instrument): number {
    const q = this.state.get(REFERENCE_VENUE, 'SPOT', i.ticker);
    return q ? (q.bid + q.ask) / 2 : i.mid;
  }

  /** Standard normal sample (Box–Muller). */
  private gaussian(): number {
    const u = Math.max(this.rng(), Number.EPSILON);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.rng());
  }
}
