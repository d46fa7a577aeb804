import type { Clock } from './clock.js';
import type { ExchangeName } from './exchanges.js';
import { type Exclusion, NameCollisionDetector, type NameCollisionOptions } from './name-collision.engine.js';
import type { QuoteBook } from './quote-book.js';

/** How often the spot book is judged for name collisions; the decision needs minutes anyway. */
export const NAME_COLLISION_CHECK_MS = 1000;

/** A venue's ticker excluded from opportunities, as /health/market shows it. */
export interface ExcludedTicker {
  ticker: string;
  exchange: ExchangeName;
  reason: string;
  /** RFC 3339: since when its price has been off. */
  since: string;
}

/** What the opportunity detectors ask (tests pass `{ isExcluded: () => false }`). */
export type CollisionGuard = Pick<NameCollisions, 'isExcluded'>;

/**
 * Runs the name-collision rule (`name-collision.engine.ts`) over the fresh spot quotes of the book
 * once a second, off the tick path, and answers the opportunity detectors whether a venue's ticker
 * is excluded. Started by the market-data service with the feeds.
 */
export class NameCollisions {
  private readonly detector: NameCollisionDetector;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    options: NameCollisionOptions,
    private readonly book: QuoteBook,
    private readonly clock: Clock,
  ) {
    this.detector = new NameCollisionDetector(options);
  }

  start(): void {
    this.timer ??= setInterval(() => this.evaluate(), NAME_COLLISION_CHECK_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  evaluate(): void {
    const fresh = [...this.book.snapshot({ market: 'SPOT' })].filter((q) => !q.stale);
    this.detector.evaluate(fresh, this.clock.now());
  }

  isExcluded(exchange: ExchangeName, ticker: string): boolean {
    return this.detector.isExcluded(exchange, ticker);
  }

  list(): ExcludedTicker[] {
    return this.detector.list().map((e: Exclusion) => ({ ticker: e.ticker, exchange: e.exchange, reason: e.reason, since: new Date(e.since).toISOString() }));
  }
}
