import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';

/**
 * One episode of a spot route: its gross spread rose above ARBITRAGE_MIN_PROFIT_PERCENT
 * at `openedAt` and fell back to or under it (or a quote went stale) at `closedAt`. Peaks are
 * the highest gross spread and the net spread at that moment, in percent; `transferable` and
 * `costsEstimated` are the costs book's view when the episode closed.
 */
export interface RouteEpisode {
  ticker: string;
  buyExchange: string;
  sellExchange: string;
  openedAt: Date;
  closedAt: Date;
  peakGrossPercent: number;
  peakNetPercent: number;
  /** Largest size worth taking (USDT, net ≥ 0) of the episode's most profitable event; null when none was sized. */
  peakMaxSizeUsdt: number | null;
  transferable: boolean;
  costsEstimated: boolean;
}

/** Episodes waiting for the next recorder round, at most; beyond it new ones are dropped and counted. */
export const MAX_PENDING_EPISODES = 100_000;

/**
 * Closed episodes between the live detector, which ends them, and the history recorder, which
 * stores them once per round in one batch. Bounded, so a database outage costs episodes, never
 * memory. With the recorder off nothing is kept.
 */
@Injectable()
export class RouteEpisodeQueue {
  readonly accepting: boolean;
  private pending: RouteEpisode[] = [];
  private droppedCount = 0;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.accepting = config.history.recorderEnabled;
  }

  push(episode: RouteEpisode): void {
    if (!this.accepting) return;
    if (this.pending.length >= MAX_PENDING_EPISODES) this.droppedCount++;
    else this.pending.push(episode);
  }

  /** Everything pending, oldest first, and how many were dropped since the last drain. */
  drain(): { episodes: RouteEpisode[]; dropped: number } {
    const out = { episodes: this.pending, dropped: this.droppedCount };
    this.pending = [];
    this.droppedCount = 0;
    return out;
  }

  /** Puts back episodes a failed write did not store, ahead of newer ones, within the bound. */
  requeue(episodes: readonly RouteEpisode[]): void {
    const room = Math.max(0, MAX_PENDING_EPISODES - this.pending.length);
    this.droppedCount += Math.max(0, episodes.length - room);
    this.pending = [...episodes.slice(episodes.length - Math.min(room, episodes.length)), ...this.pending];
  }

  get size(): number {
    return this.pending.length;
  }
}
