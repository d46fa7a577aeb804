import { AppError } from '../common/errors/app-error.js';
import { toCanonicalTicker } from '../market-model/ticker.js';

/** What a filter looks at in an event; kept beside each frame in the replay ring. */
export interface FilterableEvent {
  readonly ticker: string;
  readonly buyExchange: string;
  readonly sellExchange: string;
  readonly profitPercentAskBid: number;
  readonly netProfitPercent: number;
  readonly transferable: boolean;
  /** Priced at the client's size (or the reference): null while either book is unknown. */
  readonly size: { readonly maxSizeUsdt: number } | null;
}

/** A client's filter on GET /v1/realtime/arbitrage; every condition must hold. */
export interface OpportunityFilter {
  /** Canonical text: clients with equal filters share one group, whatever their parameter order or case. */
  readonly key: string;
  readonly minProfit: number | null;
  readonly minNetProfit: number | null;
  readonly transferableOnly: boolean;
  /** Both the buy and the sell exchange must be among these. */
  readonly exchanges: ReadonlySet<string> | null;
  readonly tickers: ReadonlySet<string> | null;
  /** USDT to price `size` at; null: NET_REFERENCE_USDT. */
  readonly size: number | null;
  /** Only events whose `size.maxSizeUsdt` is at least this (USDT); an unknown size does not pass. */
  readonly minSize: number | null;
}

/** The notional a client may price events at, USDT. */
export const SIZE_LIMITS = { min: 10, max: 10_000_000 } as const;

/** A client may name at most this many tickers: the filter is kept per distinct value. */
export const MAX_FILTER_TICKERS = 100;

export const FILTER_MESSAGES = {
  minProfit: 'minProfit must be a number from 0 to 100',
  minNetProfit: 'minNetProfit must be a number from -100 to 100',
  transferable: 'transferable must be true or false',
  exchanges: (configured: readonly string[]) => `exchanges must be a comma list of ${configured.join(', ')}`,
  exchangesPair: 'exchanges must name at least two exchanges: a route buys on one and sells on another',
  tickers: `tickers must be a comma list of at most ${MAX_FILTER_TICKERS} tickers such as BTC-USDT`,
  size: `size must be a number from ${SIZE_LIMITS.min} to ${SIZE_LIMITS.max}`,
  minSize: `minSize must be a number from 0 to ${SIZE_LIMITS.max}`,
} as const;

const NUMERIC = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/**
 * Parses the filter parameters; null when none is given (the `opportunities` rule stream, unfiltered).
 * Checked in this order, the first failure answered as a 400: minProfit, minNetProfit,
 * transferable, exchanges, tickers, size, minSize. A parameter given twice, or given empty, is invalid.
 */
export function parseOpportunityFilter(
  query: Record<string, unknown>,
  configured: readonly string[],
  /** Routes buy on one exchange and sell on another: one exchange alone can never match them. */
  { routes = true }: { routes?: boolean } = {},
): OpportunityFilter | null {
  const minProfit = numberParam(query.minProfit, 0, 100, FILTER_MESSAGES.minProfit);
  const minNetProfit = numberParam(query.minNetProfit, -100, 100, FILTER_MESSAGES.minNetProfit);
  const transferableOnly = booleanParam(query.transferable);
  const exchanges = listParam(query.exchanges, configured.length, FILTER_MESSAGES.exchanges(configured), (name) => {
    const lower = name.toLowerCase();
    return configured.includes(lower) ? lower : null;
  });
  if (routes && exchanges !== null && exchanges.size < 2) throw AppError.invalid(FILTER_MESSAGES.exchangesPair);
  const tickers = listParam(query.tickers, MAX_FILTER_TICKERS, FILTER_MESSAGES.tickers, toCanonicalTicker);
  const size = numberParam(query.size, SIZE_LIMITS.min, SIZE_LIMITS.max, FILTER_MESSAGES.size);
  const minSize = numberParam(query.minSize, 0, SIZE_LIMITS.max, FILTER_MESSAGES.minSize);
  if (minProfit === null && minNetProfit === null && !transferableOnly && exchanges === null && tickers === null && size === null && minSize === null) {
    return null;
  }
  const key = [
    minProfit ?? '', minNetProfit ?? '', transferableOnly ? 't' : '',
    exchanges ? [...exchanges].sort().join(',') : '', tickers ? [...tickers].sort().join(',') : '',
    size ?? '', minSize ?? '',
  ].join('|');
  return { key, minProfit, minNetProfit, transferableOnly, exchanges, tickers, size, minSize };
}

/** Whether the event passes; the bounds are inclusive. */
export function matchesFilter(filter: OpportunityFilter, event: FilterableEvent): boolean {
  return (filter.minProfit === null || event.profitPercentAskBid >= filter.minProfit)
    && (filter.minNetProfit === null || event.netProfitPercent >= filter.minNetProfit)
    && (!filter.transferableOnly || event.transferable)
    && (filter.exchanges === null || (filter.exchanges.has(event.buyExchange) && filter.exchanges.has(event.sellExchange)))
    && (filter.tickers === null || filter.tickers.has(event.ticker))
    && (filter.minSize === null || (event.size !== null && event.size.maxSizeUsdt >= filter.minSize));
}

function numberParam(value: unknown, min: number, max: number, message: string): number | null {
  if (value === undefined) return null;
  const text = typeof value === 'string' ? value.trim() : '';
  const n = NUMERIC.test(text) ? Number(text) : NaN;
  if (!(n >= min && n <= max)) throw AppError.invalid(message);
  return n;
}

/** `false` is accepted and means no restriction, so a form's unchecked box can be sent as is. */
function booleanParam(value: unknown): boolean {
  if (value === undefined) return false;
  const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (text !== 'true' && text !== 'false') throw AppError.invalid(FILTER_MESSAGES.transferable);
  return text === 'true';
}

function listParam(value: unknown, maxItems: number, message: string, canonical: (item: string) => string | null): Set<string> | null {
  if (value === undefined) return null;
  if (typeof value !== 'string') throw AppError.invalid(message);
  const items = value.split(',').map((item) => item.trim());
  // The limit counts the entries sent, duplicates included (as the `lookers` rule counts a looker's cryptos).
  if (items.length > maxItems) throw AppError.invalid(message);
  const out = new Set<string>();
  for (const item of items) {
    const name = item === '' ? null : canonical(item);
    if (name === null) throw AppError.invalid(message);
    out.add(name);
  }
  return out;
}
