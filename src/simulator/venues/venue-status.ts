import type { ExchangeName, Market } from '../../market-model/exchanges.js';
import type { MarketState } from '../market-state.js';

/** The states of a market the venue keeps in its list without trading it (POST /_sim/halt, /_sim/delist). */
export type ListedStatus = 'halted' | 'delisted';

/** The fields a venue sets on such a market's row, per market and state, in its own words. */
export type VenueStatusFields = Readonly<Record<Market, Readonly<Record<ListedStatus, Readonly<Record<string, unknown>>>>>>;

/** A venue's market row as its list shows it now: unchanged while it trades, else with the venue's status. */
export function withVenueStatus(
  state: MarketState, exchange: ExchangeName, fields: VenueStatusFields, market: Market, ticker: string, row: Record<string, unknown>,
): Record<string, unknown> {
  const status = state.statusOf(exchange, market, ticker);
  return status === 'trading' ? row : { ...row, ...fields[market][status] };
}
