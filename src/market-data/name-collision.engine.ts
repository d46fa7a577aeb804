import type { ExchangeName } from '../market-model/exchanges.js';

export interface NameCollisionOptions {
  /** A venue whose mid is off the reference by MORE than this is suspect (NAME_COLLISION_SPREAD_PERCENT). */
  spreadPercent: number;
  /** ... and is excluded once it has stayed off for this long without a break (NAME_COLLISION_MIN_MS). */
  minDurationMs: number;
}

/** One fresh spot top of book. */
export interface MidQuote {
  readonly exchange: ExchangeName;
  readonly ticker: string;
  readonly bid: number;
  readonly ask: number;
}

export interface Exclusion {
  readonly ticker: string;
  readonly exchange: ExchangeName;
  readonly reason: string;
  /** Unix ms since when its price has been off (the exclusion began `minDurationMs` later). */
  readonly since: number;
}

/**
 * The same ticker naming two different coins on two venues. Real arbitrage between
 * venues closes within minutes and is rarely above a few percent; two different coins keep
 * their own prices, tens of percent apart, for as long as both trade. So a venue's ticker is
 * excluded from opportunities when its spot mid stays more than `spreadPercent` away from the
 * reference for `minDurationMs`, and readmitted at the first evaluation within it.
 *
 * The reference is the median mid of every venue quoting the ticker when there are three or
 * more, so the odd one out is the one excluded and the majority keeps trading. With two venues
 * there is no majority to say which coin is the "right" one: each is measured against the other
 * and both are excluded. A venue without a fresh quote keeps its state until it quotes again.
 */
export class NameCollisionDetector {
  private readonly offSince = new Map<string, number>();
  private readonly excluded = new Map<string, Exclusion>();

  constructor(private readonly options: NameCollisionOptions) {}

  /** One pass over fresh spot quotes (one per venue and ticker), at `now`. */
  evaluate(quotes: Iterable<MidQuote>, now: number): void {
    for (const [ticker, mids] of groupMids(quotes)) {
      if (mids.size < 2) continue;
      const median = medianOf([...mids.values()]);
      for (const [exchange, mid] of mids) {
        const reference = mids.size === 2 ? otherOf(mids, exchange) : median;
        this.judge(ticker, exchange, (Math.abs(mid - reference) / reference) * 100, mids.size, now);
      }
    }
  }

  isExcluded(exchange: ExchangeName, ticker: string): boolean {
    return this.excluded.size > 0 && this.excluded.has(keyOf(exchange, ticker));
  }

  /** Current exclusions, oldest first. */
  list(): Exclusion[] {
    return [...this.excluded.values()];
  }

  private judge(ticker: string, exchange: ExchangeName, offPercent: number, venues: number, now: number): void {
    const key = keyOf(exchange, ticker);
    if (!(offPercent > this.options.spreadPercent)) {
      this.offSince.delete(key);
      this.excluded.delete(key);
      return;
    }
    const since = this.offSince.get(key) ?? now;
    this.offSince.set(key, since);
    if (now - since < this.options.minDurationMs || this.excluded.has(key)) return;
    const against = venues === 2 ? 'the only other exchange quoting it' : `the median of ${venues} exchanges`;
    this.excluded.set(key, {
      ticker, exchange, since,
      reason: `name collision: mid ${offPercent.toFixed(1)} % away from ${against} for over ${durationText(this.options.minDurationMs)} ` +
        `(threshold ${this.options.spreadPercent} %): another coin under the same ticker`,
    });
  }
}

/** `10 min`, `1.5 min`, `5 s`: minutes from two minutes up. */
function durationText(ms: number): string {
  return ms >= 120_000 ? `${Math.round(ms / 6000) / 10} min` : `${Math.round(ms / 100) / 10} s`;
}

const keyOf = (exchange: ExchangeName, ticker: string): string => `${exchange}|${ticker}`;

function groupMids(quotes: Iterable<MidQuote>): Map<string, Map<ExchangeName, number>> {
  const out = new Map<string, Map<ExchangeName, number>>();
  for (const q of quotes) {
    if (!(q.bid > 0) || !(q.ask > 0)) continue;
    let mids = out.get(q.ticker);
    if (!mids) out.set(q.ticker, (mids = new Map<ExchangeName, number>()));
    mids.set(q.exchange, (q.bid + q.ask) / 2);
  }
  return out;
}

function otherOf(mids: Map<ExchangeName, number>, exchange: ExchangeName): number {
  for (const [e, mid] of mids) if (e !== exchange) return mid;
  return NaN;
}

/** Median; for an even count the mean of the two middle values. */
export function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
}
