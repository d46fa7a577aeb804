/**
 * Books a client asked for by name (GET /v1/market/books on a book no route holds): each is held
 * for `holdMs` after its last request, at most `max` at once over all exchanges and market types,
 * so a client walking the whole universe costs the venues a bounded number of subscriptions
 * (rules: depth).
 */
export interface BookDemandOptions {
  holdMs: number;
  max: number;
}

/** `exchange|market|ticker`. */
export type BookKey = string;

export const bookKeyOf = (exchange: string, market: string, ticker: string): BookKey => `${exchange}|${market}|${ticker}`;

export class BookDemand {
  private readonly until = new Map<BookKey, number>();

  constructor(private readonly options: BookDemandOptions) {}

  /**
   * Asks for a book until `now + holdMs` (a book already asked for is renewed). False when `max`
   * other books are asked for already: nothing changes.
   */
  demand(key: BookKey, now: number): boolean {
    if (!this.until.has(key) && this.until.size >= this.options.max) return false;
    this.until.set(key, now + this.options.holdMs);
    return true;
  }

  /** Drops the books whose hold ran out by `now`; answers their keys. */
  sweep(now: number): BookKey[] {
    const expired = [...this.until].filter(([, until]) => until <= now).map(([key]) => key);
    for (const key of expired) this.until.delete(key);
    return expired;
  }

  /** The tickers asked for on one exchange and market type, sorted. */
  tickers(exchange: string, market: string): string[] {
    const prefix = `${exchange}|${market}|`;
    return [...this.until.keys()].filter((key) => key.startsWith(prefix)).map((key) => key.slice(prefix.length)).sort();
  }

  has(key: BookKey): boolean {
    return this.until.has(key);
  }

  get size(): number {
    return this.until.size;
  }
}
