import { EXCHANGE_NAMES, type ExchangeName } from '../market-model/exchanges.js';
import type { Instrument } from './instruments.js';
import { FundingLedger, type SimSettlement } from './funding-ledger.js';
import { simVenueOf } from './venues/index.js';

/**
 * Funding of one simulated perpetual. `intervalHours` null: the exchange states no interval for
 * it (clients must derive one); `nextFundingTime` 'schedule': the next multiple of the interval
 * (8 h when none is stated), null: the exchange sends no next time.
 */
export interface SimFunding {
  exchange: ExchangeName;
  ticker: string;
  /** Fraction per interval; null when the exchange sends no rate. */
  fundingRate: number | null;
  intervalHours: number | null;
  nextFundingTime: number | null | 'schedule';
  /** null: the futures mid of the simulated book. */
  markPrice: number | null;
}

/** `PUT /_sim/funding` item after validation; omitted members keep their current value. */
export interface FundingUpdate {
  exchange: ExchangeName;
  ticker: string;
  fundingRate: number | null;
  intervalHours?: number | null;
  nextFundingTime?: number | null;
  markPrice?: number | null;
}

function hashOf(text: string): number {
  let hash = 2166136261;
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return hash;
}

// Most perpetuals pay every 8 h; venues move volatile contracts to 4 h or 1 h. BTC and ETH stay
// on 8 h everywhere, as on the real venues. Some venues rarely use 1 h (`funding.someHourly`).
function defaultIntervalHours(exchange: ExchangeName, base: string, hash: number): number {
  const fixed = simVenueOf(exchange).funding.everyHours;
  if (fixed !== undefined) return fixed;
  if (base === 'BTC' || base === 'ETH') return 8;
  const oneHour = simVenueOf(exchange).funding.someHourly ? hash % 7 === 0 : false;
  if (oneHour) return 1;
  return hash % 3 === 0 ? 4 : 8;
}

/**
 * A realistic default, stable per (exchange, ticker): per 8 hours mostly the 0.01 % baseline,
 * some richer positive carry up to 0.05 %, some negative down to -0.02 %, a few exactly zero;
 * about nine in ten within ±0.03 % per 8 h, as the venues' perpetuals usually pay. A shorter
 * interval pays proportionally less per settlement.
 */
export function defaultRate(hash: number, intervalHours: number): number {
  const bucket = hash % 10;
  const per8h = bucket < 4 ? 10 : bucket === 4 ? 0 : bucket < 7 ? -((hash >>> 4) % 20 + 1) : (hash >>> 4) % 49 + 2;
  // per8h counts thousandths of a percent (1e-5) per 8 h.
  return Number(((per8h * intervalHours) / 8 / 100_000).toPrecision(12));
}

const keyOf = (exchange: ExchangeName, ticker: string): string => `${exchange}|${ticker}`;

/**
 * Funding of every simulated perpetual on every exchange, and its settled history; the
 * protocols render both. Each perpetual settles on its own schedule (lazily, when read or
 * changed) at the rate set at that moment.
 */
export class FundingBook {
  private readonly entries = new Map<string, SimFunding>();
  private readonly ledgers = new Map<string, FundingLedger>();

  constructor(instruments: readonly Instrument[], startedAt = Date.now()) {
    for (const i of instruments) {
      for (const exchange of EXCHANGE_NAMES) {
        const hash = hashOf(`${exchange}:${i.ticker}`);
        const intervalHours = defaultIntervalHours(exchange, i.base, hash);
        const entry: SimFunding = {
          exchange, ticker: i.ticker, fundingRate: defaultRate(hash, intervalHours),
          intervalHours, nextFundingTime: 'schedule', markPrice: null,
        };
        this.entries.set(keyOf(exchange, i.ticker), entry);
        this.ledgers.set(keyOf(exchange, i.ticker), new FundingLedger(entry, startedAt));
      }
    }
  }

  /** Every settlement of a perpetual up to `now`, oldest first: the seeded past, then its own. */
  history(exchange: ExchangeName, ticker: string, now = Date.now()): readonly SimSettlement[] {
    const entry = this.get(exchange, ticker);
    const ledger = this.ledgers.get(keyOf(exchange, ticker));
    if (!entry || !ledger) return [];
    this.settle(entry, ledger, now);
    return ledger.all();
  }

  /** Records the payments due by `now` at the current rate; a passed explicit time then follows the schedule. */
  private settle(entry: SimFunding, ledger: FundingLedger, now: number): void {
    if (ledger.settle(entry, now)) this.entries.set(keyOf(entry.exchange, entry.ticker), { ...entry, nextFundingTime: 'schedule' });
  }

  get(exchange: ExchangeName, ticker: string): SimFunding | undefined {
    return this.entries.get(keyOf(exchange, ticker));
  }

  /** Sets a perpetual's funding from `now` on, after settling what was due before it. */
  apply(update: FundingUpdate, now = Date.now()): SimFunding {
    this.history(update.exchange, update.ticker, now);
    const current = this.get(update.exchange, update.ticker);
    if (!current) throw new Error(`unknown perpetual ${update.exchange} ${update.ticker}`);
    const next: SimFunding = {
      ...current,
      fundingRate: update.fundingRate,
      intervalHours: update.intervalHours === undefined ? current.intervalHours : update.intervalHours,
      nextFundingTime: update.nextFundingTime === undefined ? current.nextFundingTime : update.nextFundingTime,
      markPrice: update.markPrice === undefined ? current.markPrice : update.markPrice,
    };
    this.entries.set(keyOf(next.exchange, next.ticker), next);
    return next;
  }

  list(exchange?: ExchangeName): SimFunding[] {
    return [...this.entries.values()].filter((f) => exchange === undefined || f.exchange === exchange);
  }
}
