import type { MarketInterface } from 'ccxt';
import type { ExchangeName, Market } from '../../market-model/exchanges.js';
import { fromCcxtSymbol } from '../../market-model/ticker.js';
import { VENUES } from '../../venues/registry.js';

/** A market's trading status as its venue states it: trading, or out of the feeds and why. */
export type MarketStatus =
  | { readonly state: 'trading' }
  | { readonly state: 'halted' | 'delisting' | 'delisted'; readonly reason: string };

// The venues keep halted and delisted markets in their lists with a status; ccxt 4.5.84 folds it
// into `active` (false) and keeps the venue's row in `info`. Each venue's folder names the fields
// and values it uses (`status`); a row is read against all of them, so a venue that starts using
// another venue's word is still understood (rules: tickers).
const STATUS_FIELDS = [...new Set(VENUES.flatMap((v) => v.status.fields))];
const STATES: Readonly<Record<string, 'halted' | 'delisting' | 'delisted'>> = Object.fromEntries(VENUES.flatMap((v) => Object.entries(v.status.states)));
const FLAGS: Readonly<Record<string, 'halted' | 'delisting' | 'delisted'>> = Object.fromEntries(VENUES.flatMap((v) => Object.entries(v.status.flags ?? {})));

/** The status of a loaded market: the venue's own field when it names one, else ccxt's `active`. */
export function marketStatusOf(m: MarketInterface): MarketStatus {
  const info = (typeof m.info === 'object' && m.info !== null ? m.info : {}) as Record<string, unknown>;
  for (const field of STATUS_FIELDS) {
    const value = info[field];
    const state = typeof value === 'string' && Object.hasOwn(STATES, value) ? STATES[value] : undefined;
    if (state) return { state, reason: `${state}: ${field} ${String(value)}` };
  }
  for (const [field, state] of Object.entries(FLAGS)) {
    if (info[field] === true) return { state, reason: `${state}: ${field} true` };
  }
  if (m.active === false) return { state: 'halted', reason: 'halted: inactive' };
  return { state: 'trading' };
}

/**
 * The spot or USDT-perpetual markets of one kind the venue lists but does not trade now, by
 * canonical ticker, each with the reason (the feeds leave them out and list them as refused).
 */
export function notTradingByTicker(markets: Record<string, MarketInterface | undefined>, market: Market, settle: 'USDT' | 'USDC' = 'USDT'): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of Object.values(markets)) {
    if (!m || !(market === 'SPOT' ? m.spot : m.swap && m.linear && m.settle === settle)) continue;
    const status = marketStatusOf(m);
    if (status.state !== 'trading') out.set(fromCcxtSymbol(m.symbol), status.reason);
  }
  return out;
}

/** A market out of the feeds (refused, halted, delisted) with where it sat in the universe. */
export interface ParkedMarket {
  readonly market: Market;
  readonly ticker: string;
  readonly index: number;
}

/**
 * Markets out of the feeds while their venue does not trade them, watched again once a markets
 * reload shows them trading (rules: tickers). One per exchange, market and ticker.
 */
export class ParkedMarkets {
  private readonly byExchange = new Map<ExchangeName, Map<string, ParkedMarket>>();

  park(exchange: ExchangeName, parked: ParkedMarket): void {
    let byKey = this.byExchange.get(exchange);
    if (!byKey) this.byExchange.set(exchange, (byKey = new Map<string, ParkedMarket>()));
    byKey.set(`${parked.market}|${parked.ticker}`, parked);
  }

  /** The parked markets this reload shows trading (`tradingKeys` holds `MARKET|TICKER`), taken off the list. */
  takeTrading(exchange: ExchangeName, tradingKeys: ReadonlySet<string>): ParkedMarket[] {
    const byKey = this.byExchange.get(exchange);
    if (!byKey) return [];
    const out = [...byKey].filter(([key]) => tradingKeys.has(key)).map(([, parked]) => parked);
    for (const p of out) byKey.delete(`${p.market}|${p.ticker}`);
    return out;
  }
}
