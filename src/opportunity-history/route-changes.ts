import { Inject, Injectable } from '@nestjs/common';
import { PERCENT_DECIMALS, dec, roundPercent, roundsAtLeast, spreadPercent } from '../common/money/money.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';

/** A route as the stream names it. */
export interface ShownRoute {
  ticker: string;
  buyExchange: string;
  sellExchange: string;
}

/** One spread of a route the live stream published: what the history stores at its real time. */
export interface RouteChange extends ShownRoute {
  /** Unix ms: the moment the event was published (or the route's closing tick). */
  time: number;
  buyPrice: number;
  sellPrice: number;
  /** As the event carried it (8 decimals). */
  grossSpreadPercent: number;
  volume24h: number | null;
}

/** The end of a route's episode as the detector reports it; prices null when a quote lapsed. */
export interface RouteEnd extends ShownRoute {
  time: number;
  buyPrice: number | null;
  sellPrice: number | null;
}

/** Changes waiting for the next write, at most; beyond it new ones are dropped and counted. */
export const MAX_PENDING_CHANGES = 100_000;

const keyOf = (r: ShownRoute): string => `${r.ticker}|${r.buyExchange}|${r.sellExchange}`;

/**
 * The spreads the live stream shows, between the detector (which publishes them, on the serving
 * thread) and the history recorder (which stores them about once a second, in one batch). The
 * `recorders` rule: every published spread at or above HISTORY_MIN_SPREAD_PERCENT is kept; when
 * such a route's episode ends on a price, that closing spread is kept too, whatever it is, so
 * the history knows when the route went below; an episode that ends because a quote lapsed
 * leaves no sample (the gap then says it). Pushing is O(1) and allocates one small object; the
 * pricing of costs and the SQL happen in the recorder's turn. Bounded like the episode queue.
 */
@Injectable()
export class RouteChangeQueue {
  readonly accepting: boolean;
  private readonly minSpreadPercent: number;
  private pending: RouteChange[] = [];
  private droppedCount = 0;
  /** Routes with a kept change in their current episode: the last one's time and volume. */
  private readonly shownRoutes = new Map<string, { time: number; volume24h: number | null }>();

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.accepting = config.history.recorderEnabled;
    this.minSpreadPercent = config.history.minSpreadPercent;
  }

  /** A published event's spread (`grossSpreadPercent` already rounded as shown). */
  shown(change: RouteChange): void {
    if (!this.accepting) return;
    if (!this.atOrAboveMinimum(change.grossSpreadPercent)) return;
    this.shownRoutes.set(keyOf(change), { time: change.time, volume24h: change.volume24h });
    this.add(change);
  }

  /** The detector ended a route's episode: its closing spread is kept if the route was shown. */
  ended(end: RouteEnd): void {
    const key = keyOf(end);
    const last = this.shownRoutes.get(key);
    if (!last) return;
    this.shownRoutes.delete(key);
    if (end.buyPrice === null || end.sellPrice === null || !(end.buyPrice > 0)) return;
    this.add({
      ticker: end.ticker,
      buyExchange: end.buyExchange,
      sellExchange: end.sellExchange,
      // The closing tick may have been received a moment before the last event was published
      // (it travelled from the ingest thread meanwhile); the end never sorts before what it ends.
      time: Math.max(end.time, last.time + 1),
      buyPrice: end.buyPrice,
      sellPrice: end.sellPrice,
      grossSpreadPercent: roundPercent(spreadPercent(end.buyPrice, end.sellPrice)),
      volume24h: last.volume24h,
    });
  }

  /** Everything pending, oldest first, and how many were dropped since the last drain. */
  drain(): { changes: RouteChange[]; dropped: number } {
    const out = { changes: this.pending, dropped: this.droppedCount };
    this.pending = [];
    this.droppedCount = 0;
    return out;
  }

  /** Puts back changes a failed write did not store, ahead of newer ones, within the bound. */
  requeue(changes: readonly RouteChange[]): void {
    const room = Math.max(0, MAX_PENDING_CHANGES - this.pending.length);
    this.droppedCount += Math.max(0, changes.length - room);
    this.pending = [...changes.slice(changes.length - Math.min(room, changes.length)), ...this.pending];
  }

  get size(): number {
    return this.pending.length;
  }

  /**
   * The figure is already rounded as shown. Rounding decimals to doubles keeps their order, so
   * unequal doubles answer at once; equal ones may hide a difference past the 17th digit, and
   * decimal decides.
   */
  private atOrAboveMinimum(gross: number): boolean {
    if (gross !== this.minSpreadPercent) return gross > this.minSpreadPercent;
    return roundsAtLeast(dec(gross), this.minSpreadPercent, PERCENT_DECIMALS);
  }

  private add(change: RouteChange): void {
    if (this.pending.length >= MAX_PENDING_CHANGES) this.droppedCount++;
    else this.pending.push(change);
  }
}
