import type { MarketInterface } from 'ccxt';
import type { ExchangeName, Market } from '../../market-model/exchanges.js';
import { fromCcxtSymbol } from '../../market-model/ticker.js';

/** A market's trading status as its venue states it: trading, or out of the feeds and why. */
export type MarketStatus =
  | { readonly state: 'trading' }
  | { readonly state: 'halted' | 'delisting' | 'delisted'; readonly reason: string };

// The venues keep halted and delisted markets in their lists with a status; ccxt 4.5.84 folds it
// into `active` (false) and keeps the venue's row in `info`. binance `status` (spot `HALT`,
// `BREAK` once delisted; USDⓈ-M `SETTLING`, `CLOSE`), bybit `status` (`Closed`, `Delivering`),
// okx `state` (`suspend`), gate spot `trade_status` (`untradable`) and futures `status` /
// `in_delisting`, bitget spot `status` (`halt`, `offline`) and futures `symbolStatus`
// (`maintain`, `off`) (rules: tickers).
const STATUS_FIELDS = ['status', 'contractStatus', 'state', 'trade_status', 'symbolStatus'] as const;
const STATES: Readonly<Record<string, 'halted' | 'delisting' | 'delisted'>> = {
  HALT: 'halted', SETTLING: 'halted', PENDING_TRADING: 'halted', AUCTION_MATCH: 'halted', suspend: 'halted',
  untradable: 'halted', halt: 'halted', maintain: 'halted', PreLaunch: 'halted', preopen: 'halted',
  PRE_DELIVERING: 'delisting', DELIVERING: 'delisting', Delivering: 'delisting', delisting: 'delisting',
  BREAK: 'delisted', CLOSE: 'delisted', DELIVERED: 'delisted', END_OF_DAY: 'delisted', Closed: 'delisted',
  offline: 'delisted', off: 'delisted', delisted: 'delisted',
};

/** The status of a loaded market: the venue's own field when it names one, else ccxt's `active`. */
export function marketStatusOf(m: MarketInterface): MarketStatus {
  const info = (typeof m.info === 'object' && m.info !== null ? m.info : {}) as Record<string, unknown>;
  for (const field of STATUS_FIELDS) {
    const value = info[field];
    const state = typeof value === 'string' && Object.hasOwn(STATES, value) ? STATES[value] : undefined;
    if (state) return { state, reason: `${state}: ${field} ${String(value)}` };
  }
  if (info.in_delisting === true) return { state: 'delisting', reason: 'delisting: in_delisting true' };
  if (m.active === false) return { state: 'halted', reason: 'halted: inactive' };
  return { state: 'trading' };
}

/**
 * The spot or USDT-perpetual markets of one kind the venue lists but does not trade now, by
 * canonical ticker, each with the reason (the feeds leave them out and list them as refused).
 */
export function notTradingByTicker(markets: Record<string, MarketInterface | undefined>, market: Market): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of Object.values(markets)) {
    if (!m || !(market === 'SPOT' ? m.spot : m.swap && m.linear && m.settle === 'USDT')) continue;
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
