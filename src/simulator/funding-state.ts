import { EXCHANGE_NAMES, type ExchangeName } from '../market-data/exchanges.js';
import type { Instrument } from './instruments.js';

const HOUR_MS = 3_600_000;

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
// on 8 h everywhere, as on the real venues. Gate and okx rarely use 1 h.
function defaultIntervalHours(exchange: ExchangeName, base: string, hash: number): number {
  if (base === 'BTC' || base === 'ETH') return 8;
  const oneHour = exchange === 'bybit' || exchange === 'bitget' || exchange === 'binance' ? hash % 7 === 0 : false;
  if (oneHour) return 1;
  return hash % 3 === 0 ? 4 : 8;
}

/**
 * A realistic default: mostly the 0.01 % baseline, some richer positive carry, some negative,
 * a few exactly zero (mixed signs for the demo), stable per (exchange, ticker).
 */
function defaultRate(hash: number): number {
  const bucket = hash % 10;
  if (bucket < 4) return 0.0001;
  if (bucket === 4) return 0;
  if (bucket < 7) return -((hash >>> 4) % 40 + 1) / 100_000;
  return ((hash >>> 4) % 70 + 2) / 100_000;
}

const keyOf = (exchange: ExchangeName, ticker: string): string => `${exchange}|${ticker}`;

/** Funding of every simulated perpetual on every exchange; the protocols render it. */
export class FundingBook {
  private readonly entries = new Map<string, SimFunding>();

  constructor(instruments: readonly Instrument[]) {
    for (const i of instruments) {
      for (const exchange of EXCHANGE_NAMES) {
        const hash = hashOf(`${exchange}:${i.ticker}`);
        this.entries.set(keyOf(exchange, i.ticker), {
          exchange, ticker: i.ticker, fundingRate: defaultRate(hash),
          intervalHours: defaultIntervalHours(exchange, i.base, hash), nextFundingTime: 'schedule', markPrice: null,
        });
      }
    }
  }

  get(exchange: ExchangeName, ticker: string): SimFunding | undefined {
    return this.entries.get(keyOf(exchange, ticker));
  }

  apply(update: FundingUpdate): SimFunding {
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

/** Unix ms of the next payment as the exchange would announce it, or null. */
export function nextFundingTimeOf(f: SimFunding, now = Date.now()): number | null {
  if (f.nextFundingTime !== 'schedule') return f.nextFundingTime;
  const intervalMs = (f.intervalHours ?? 8) * HOUR_MS;
  return Math.floor(now / intervalMs) * intervalMs + intervalMs;
}

/** Rates as exchanges print them: plain decimals, no exponent. */
export function formatRate(rate: number): string {
  return rate.toFixed(8).replace(/0+$/, '').replace(/\.$/, '');
}
