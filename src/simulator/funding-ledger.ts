import type { SimFunding } from './funding-state.js';

/** One payment of a simulated perpetual, as the venues' funding-history calls list them. */
export interface SimSettlement {
  settledAt: number;
  /** Fraction per interval. */
  rate: number;
  intervalHours: number;
  /** The mark price stated for the payment, when one was set. */
  markPrice: number | null;
}

const HOUR_MS = 3_600_000;
/** How far back the seeded series reaches: the service backfills 30 days. */
export const SEED_DAYS = 32;
/** Payments settled in one catch-up at most (a simulator left idle for months). */
const MAX_CATCH_UP = SEED_DAYS * 24;

/** A stable pseudo-random integer of two numbers (splitmix-like), for the seeded series. */
function mix(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  return (h ^ (h >>> 15)) >>> 0;
}

function seedOf(text: string): number {
  let hash = 2166136261;
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return hash;
}

const round8 = (value: number): number => Number(value.toFixed(8));

/**
 * The settled history of one simulated perpetual: a seeded past (the starting rate ± 20 %, on the
 * starting interval, every slot up to the simulator's start) and then what it settles itself,
 * each payment at the rate set at its moment.
 */
export class FundingLedger {
  private readonly own: SimSettlement[] = [];
  private lastDue: number;
  private readonly seed: number;
  private readonly initialRate: number | null;
  private readonly initialHours: number;

  constructor(initial: SimFunding, private readonly startedAt: number) {
    this.lastDue = startedAt;
    this.seed = seedOf(`${initial.exchange}:${initial.ticker}`);
    this.initialRate = initial.fundingRate;
    this.initialHours = initial.intervalHours ?? 8;
  }

  all(): SimSettlement[] {
    return [...this.seeded(), ...this.own];
  }

  /**
   * Settles every payment due by `now` on `entry`'s schedule: an explicit next time once (true is
   * returned so the book goes back to the schedule), else each multiple of the interval.
   */
  settle(entry: SimFunding, now: number): boolean {
    let explicitDone = false;
    for (let n = 0; n < MAX_CATCH_UP; n++) {
      const explicit = !explicitDone && typeof entry.nextFundingTime === 'number' && entry.nextFundingTime > this.lastDue;
      const due = explicit ? (entry.nextFundingTime as number) : this.scheduled(entry);
      if (due > now) break;
      if (entry.fundingRate !== null) {
        this.own.push({ settledAt: due, rate: entry.fundingRate, intervalHours: entry.intervalHours ?? 8, markPrice: entry.markPrice });
      }
      this.lastDue = due;
      if (explicit) explicitDone = true;
    }
    return explicitDone;
  }

  private scheduled(entry: SimFunding): number {
    const intervalMs = (entry.intervalHours ?? 8) * HOUR_MS;
    return Math.floor(this.lastDue / intervalMs) * intervalMs + intervalMs;
  }

  private seeded(): SimSettlement[] {
    if (this.initialRate === null) return [];
    const intervalMs = this.initialHours * HOUR_MS;
    const last = Math.floor(this.startedAt / intervalMs) * intervalMs;
    const first = this.startedAt - SEED_DAYS * 24 * HOUR_MS;
    const out: SimSettlement[] = [];
    for (let t = Math.ceil(first / intervalMs) * intervalMs; t <= last; t += intervalMs) {
      const noise = ((mix(this.seed, t / intervalMs) % 41) - 20) / 100;
      out.push({ settledAt: t, rate: round8(this.initialRate * (1 + noise)), intervalHours: this.initialHours, markPrice: null });
    }
    return out;
  }
}
