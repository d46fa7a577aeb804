import type { ExchangeName } from '../../market-model/exchanges.js';

/** A spot route: buy `ticker` on one exchange, sell it on another. */
export interface TrackedRoute {
  readonly ticker: string;
  readonly buyExchange: ExchangeName;
  readonly sellExchange: ExchangeName;
}

export interface DepthRouteTrackerOptions {
  /** Books held at once over all exchanges (DEPTH_MAX_BOOKS). */
  maxBooks: number;
  /** A closed route's books stay this long (DEPTH_GRACE_MS). */
  graceMs: number;
  /** Called with an exchange's new set of spot tickers whenever it changes. */
  hold(exchange: ExchangeName, tickers: readonly string[]): void;
  /**
   * Given: routes opening and closing only mark the set stale, and this is asked to call `flush`
   * soon (once per burst); the set is ranked once per burst instead of once per route event.
   * Absent: every route event ranks at once.
   */
  schedule?(flush: () => void): void;
}

interface RouteState {
  route: TrackedRoute;
  openedAt: number;
  /** null while open. */
  closedAt: number | null;
  /** Latest gross spread, percent: the least profitable routes give way first. */
  spread: number;
  /** Its books were chosen at a ranking while it was open: only then does it keep them in grace. */
  admitted: boolean;
}

const keyOf = (r: TrackedRoute): string => `${r.ticker}|${r.buyExchange}|${r.sellExchange}`;

/**
 * Which spot order books the service holds: both legs of every open route, and of every route
 * closed less than `graceMs` ago that held them. A route that closes before a ranking chose its
 * books (a crossing of a few milliseconds while quotes land one venue at a time, gone before the
 * burst is ranked) is forgotten at once: it never costs a subscription. When more than `maxBooks` books would be held, routes are
 * admitted in order (open before closed; higher spread first; among equals the newest first) until
 * the next would exceed the cap: the routes in their grace period go first, then the least
 * profitable, then the oldest. Runs on the serving thread; with `schedule`, once per burst of
 * route events (at thousands of markets routes open and close by the hundred a second, and each
 * ranking sorts every route); the books themselves are kept by the ingest workers.
 */
export class DepthRouteTracker {
  private readonly routes = new Map<string, RouteState>();
  private held = new Map<ExchangeName, string>();
  private stale = false;

  constructor(private readonly options: DepthRouteTrackerOptions) {}

  /** Applies route events marked since the last flush (a scheduled call; harmless when none are). */
  flush(): void {
    if (!this.stale) return;
    this.stale = false;
    this.apply();
  }

  opened(route: TrackedRoute, at: number, spread: number): void {
    const key = keyOf(route);
    const state = this.routes.get(key);
    if (state && state.closedAt === null) {
      state.spread = spread;
      return;
    }
    this.routes.set(key, { route, openedAt: at, closedAt: null, spread, admitted: state?.admitted ?? false });
    this.changed();
  }

  /** The route's spread now (an event of it was published): re-ranks it only. */
  touched(route: TrackedRoute, spread: number): void {
    const state = this.routes.get(keyOf(route));
    if (state) state.spread = spread;
  }

  closed(route: TrackedRoute, at: number): void {
    const state = this.routes.get(keyOf(route));
    if (!state || state.closedAt !== null) return;
    if (!state.admitted) {
      // Never held: nothing to keep or release.
      this.routes.delete(keyOf(route));
      return;
    }
    state.closedAt = at;
    this.changed();
  }

  /** Ends the grace of routes closed `graceMs` ago or more. */
  sweep(now: number): void {
    let expired = false;
    for (const [key, state] of this.routes) {
      if (state.closedAt !== null && now - state.closedAt >= this.options.graceMs) {
        this.routes.delete(key);
        expired = true;
      }
    }
    if (expired) this.changed();
  }

  /** Books wanted now, as `exchange|ticker`. */
  get books(): string[] {
    return [...this.held].flatMap(([exchange, tickers]) => (tickers === '' ? [] : tickers.split(',').map((t) => `${exchange}|${t}`)));
  }

  /** Whether the route's two books are held. */
  holds(route: TrackedRoute): boolean {
    const has = (exchange: ExchangeName): boolean => (this.held.get(exchange) ?? '').split(',').includes(route.ticker);
    return has(route.buyExchange) && has(route.sellExchange);
  }

  private changed(): void {
    if (!this.options.schedule) {
      this.apply();
      return;
    }
    if (this.stale) return;
    this.stale = true;
    this.options.schedule(() => this.flush());
  }

  private apply(): void {
    const ranked = [...this.routes.values()].sort(rank);
    // In rank order, so each exchange subscribes its most profitable books first.
    const chosen = new Set<string>();
    for (const state of ranked) {
      const { route } = state;
      const legs = [`${route.buyExchange}|${route.ticker}`, `${route.sellExchange}|${route.ticker}`];
      const extra = legs.filter((leg) => !chosen.has(leg)).length;
      if (chosen.size + extra > this.options.maxBooks) {
        state.admitted = false;
        continue;
      }
      for (const leg of legs) chosen.add(leg);
      if (state.closedAt === null) state.admitted = true;
    }
    const next = new Map<ExchangeName, string[]>();
    for (const leg of chosen) {
      const [exchange, ticker] = leg.split('|') as [ExchangeName, string];
      next.set(exchange, [...(next.get(exchange) ?? []), ticker]);
    }
    const nextText = new Map([...next].map(([e, tickers]) => [e, [...tickers].sort().join(',')] as const));
    for (const exchange of new Set([...this.held.keys(), ...nextText.keys()])) {
      const text = nextText.get(exchange) ?? '';
      if ((this.held.get(exchange) ?? '') !== text) this.options.hold(exchange, next.get(exchange) ?? []);
    }
    this.held = nextText;
  }
}

function rank(a: RouteState, b: RouteState): number {
  const aOpen = a.closedAt === null ? 0 : 1;
  const bOpen = b.closedAt === null ? 0 : 1;
  if (aOpen !== bOpen) return aOpen - bOpen;
  if (aOpen === 1) return (b.closedAt ?? 0) - (a.closedAt ?? 0);
  if (a.spread !== b.spread) return b.spread - a.spread;
  return b.openedAt - a.openedAt;
}
