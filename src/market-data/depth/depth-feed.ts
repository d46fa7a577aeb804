import type { Clock } from '../clock.js';
import { BOOK_UNKNOWN_AFTER_MS, type BookLevel, DEPTH_LEVELS } from './depth-book.js';

/** ccxt's order book as a depth feed reads it (bids and asks best first). */
export interface DepthClientBook {
  readonly bids: ArrayLike<readonly number[]>;
  readonly asks: ArrayLike<readonly number[]>;
  readonly timestamp?: number | undefined;
  readonly nonce?: number | undefined;
}

/** The slice of a ccxt pro client a depth feed uses; the ccxt adapter is in ccxt-depth-client.ts. */
export interface DepthClient {
  /** ccxt's book cache, symbol → book, updated in place as messages arrive. */
  readonly orderbooks: Record<string, DepthClientBook | undefined>;
  /** Messages the venue has sent on this client's sockets so far (book updates and answers). */
  readonly messages: number;
  /** Sends the subscribe request; settles with the first book or the subscription's failure. */
  subscribe(symbols: string[]): Promise<unknown>;
  /** Sends the unsubscribe request; settles with the venue's answer. */
  unsubscribe(symbols: string[]): Promise<unknown>;
  close(): Promise<void>;
}

/** A venue allowance a request waits for (WindowPacer). */
export interface RequestPacer {
  acquire(): Promise<() => void>;
}

export interface DepthFeedOptions {
  client: DepthClient;
  perSubscribe: number;
  perUnsubscribe: number;
  /** Every request waits for each of these in turn. */
  pacers: readonly RequestPacer[];
  clock: Clock;
  /** A refused subscription is tried again after this long. */
  retryMs: number;
  onError?(symbols: readonly string[], reason: string): void;
}

interface Held {
  id: number;
  subscribedAt: number;
  /** When the book last changed, 0 before its first state. */
  seenAt: number;
  bid: number;
  ask: number;
  bidQty: number;
  askQty: number;
  timestamp: number;
  nonce: number;
  /** Silent too long: to be unsubscribed and subscribed again. */
  stale: boolean;
}

/** A held book silent this long (several times the unknown age) is subscribed afresh: its socket may be gone. */
export const RESUBSCRIBE_AFTER_MS = 6 * BOOK_UNKNOWN_AFTER_MS;

/**
 * The books one exchange holds in one market type, inside an ingest worker: `hold` names the
 * wanted set, requests go out one at a time (unsubscribes first) as the venue's pacers allow,
 * and `poll` reports each book whose state changed since the last poll (top 20 levels a side).
 */
export class DepthFeed {
  private wanted = new Map<string, number>();
  private readonly held = new Map<string, Held>();
  private readonly retryAt = new Map<string, number>();
  private pumping = false;
  private closed = false;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(private readonly options: DepthFeedOptions) {}

  /** The books to hold, symbol → the serving thread's id, most wanted first (subscribed in that order); replaces the previous set. */
  hold(wanted: ReadonlyMap<string, number>): void {
    this.wanted = new Map(wanted);
    for (const [symbol, id] of this.wanted) {
      const held = this.held.get(symbol);
      if (held) held.id = id;
    }
    void this.pump();
  }

  /** Messages the venue has sent on this feed's sockets so far. */
  get messages(): number {
    return this.options.client.messages;
  }

  /** Symbols subscribed (requests sent and not refused). */
  get subscribed(): string[] {
    return [...this.held.keys()];
  }

  /** Calls `emit` for every held book whose state changed since the last poll. */
  poll(emit: (id: number, receivedAt: number, bids: BookLevel[], asks: BookLevel[]) => void): void {
    const now = this.options.clock.now();
    let stale = false;
    for (const [symbol, held] of this.held) {
      const book = this.options.client.orderbooks[symbol];
      if (book && changed(held, book)) {
        held.seenAt = now;
        emit(held.id, now, top(book.bids), top(book.asks));
      } else if (!held.stale && now - Math.max(held.seenAt, held.subscribedAt) >= RESUBSCRIBE_AFTER_MS) {
        // Unsubscribed on its (possibly dead) socket, then subscribed again by the pump.
        held.stale = stale = true;
      }
    }
    if (stale) void this.pump();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.options.client.close().catch(() => undefined);
  }

  private async pump(): Promise<void> {
    if (this.pumping || this.closed) return;
    this.pumping = true;
    try {
      while (!this.closed && (await this.step()));
    } finally {
      this.pumping = false;
    }
  }

  /** One request, unsubscribes first; false when held matches wanted (or waits for a retry). */
  private async step(): Promise<boolean> {
    const remove = [...this.held].filter(([s, h]) => h.stale || !this.wanted.has(s)).map(([s]) => s).slice(0, this.options.perUnsubscribe);
    if (remove.length > 0) {
      for (const symbol of remove) this.held.delete(symbol);
      await this.request(remove, () => this.options.client.unsubscribe(remove));
      return true;
    }
    const now = this.options.clock.now();
    const add = [...this.wanted.keys()].filter((s) => !this.held.has(s) && (this.retryAt.get(s) ?? 0) <= now).slice(0, this.options.perSubscribe);
    if (add.length === 0) return false;
    for (const symbol of add) {
      this.retryAt.delete(symbol);
      this.held.set(symbol, { id: this.wanted.get(symbol) ?? -1, subscribedAt: now, seenAt: 0, bid: NaN, ask: NaN, bidQty: NaN, askQty: NaN, timestamp: NaN, nonce: NaN, stale: false });
    }
    await this.request(add, () => this.options.client.subscribe(add), () => this.refused(add));
    return true;
  }

  /**
   * Waits for every pacer, sends, releases. The request's answer is not awaited: a subscription
   * settles with its first book, which may come much later; a failure is handled when it comes.
   */
  private async request(symbols: string[], send: () => Promise<unknown>, onFailure?: () => void): Promise<void> {
    const releases: (() => void)[] = [];
    for (const pacer of this.options.pacers) releases.push(await pacer.acquire());
    try {
      send().catch((err: unknown) => {
        this.options.onError?.(symbols, err instanceof Error ? `${err.name}: ${err.message}` : String(err));
        onFailure?.();
      });
    } finally {
      for (const release of releases) release();
    }
  }

  /** A refused subscription: forgotten, and tried again after `retryMs` if still wanted. */
  private refused(symbols: readonly string[]): void {
    if (this.closed) return;
    const at = this.options.clock.now() + this.options.retryMs;
    for (const symbol of symbols) {
      this.held.delete(symbol);
      this.retryAt.set(symbol, at);
    }
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.pump();
    }, this.options.retryMs);
  }
}

function changed(held: Held, book: DepthClientBook): boolean {
  const bid = book.bids[0];
  const ask = book.asks[0];
  const next = {
    bid: bid?.[0] ?? NaN, bidQty: bid?.[1] ?? NaN, ask: ask?.[0] ?? NaN, askQty: ask?.[1] ?? NaN,
    timestamp: book.timestamp ?? NaN, nonce: book.nonce ?? NaN,
  };
  const same = held.seenAt !== 0 && sameNumber(held.bid, next.bid) && sameNumber(held.ask, next.ask)
    && sameNumber(held.bidQty, next.bidQty) && sameNumber(held.askQty, next.askQty)
    && sameNumber(held.timestamp, next.timestamp) && sameNumber(held.nonce, next.nonce);
  if (same) return false;
  // An empty book before any message is no state yet.
  if (held.seenAt === 0 && book.bids.length === 0 && book.asks.length === 0 && book.timestamp === undefined) return false;
  Object.assign(held, next);
  return true;
}

const sameNumber = (a: number, b: number): boolean => a === b || (Number.isNaN(a) && Number.isNaN(b));

function top(side: ArrayLike<readonly number[]>): BookLevel[] {
  const n = Math.min(side.length, DEPTH_LEVELS);
  const out: BookLevel[] = [];
  for (let i = 0; i < n; i++) {
    const level = side[i];
    if (level && level[0] !== undefined && level[1] !== undefined) out.push([level[0], level[1]]);
  }
  return out;
}
