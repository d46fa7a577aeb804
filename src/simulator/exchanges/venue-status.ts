import type { ExchangeName, Market } from '../../market-model/exchanges.js';
import type { MarketState } from '../market-state.js';

type Status = 'halted' | 'delisted';

/**
 * The status field each venue sets on a market it keeps in its list without trading it
 * (POST /_sim/halt, /_sim/delist): binance spot `status` `HALT` / `BREAK` and USDⓈ-M `SETTLING` /
 * `CLOSE`; bybit `status` `Closed` for both (it publishes no halt state); okx `state` `suspend`
 * for both; gate spot `trade_status` `untradable` (a delisting also has `delisting_time`) and
 * futures `status` `suspend` / `in_delisting` with `status` `delisting`; bitget spot `status`
 * `halt` / `offline` and futures `symbolStatus` `maintain` / `off`.
 */
const FIELDS: Readonly<Record<ExchangeName, Readonly<Record<Market, Readonly<Record<Status, Record<string, unknown>>>>>>> = {
  binance: {
    SPOT: { halted: { status: 'HALT' }, delisted: { status: 'BREAK' } },
    FUTURES: { halted: { status: 'SETTLING' }, delisted: { status: 'CLOSE' } },
  },
  bybit: {
    SPOT: { halted: { status: 'Closed' }, delisted: { status: 'Closed' } },
    FUTURES: { halted: { status: 'Closed' }, delisted: { status: 'Closed' } },
  },
  okx: {
    SPOT: { halted: { state: 'suspend' }, delisted: { state: 'suspend' } },
    FUTURES: { halted: { state: 'suspend' }, delisted: { state: 'suspend' } },
  },
  gate: {
    SPOT: { halted: { trade_status: 'untradable' }, delisted: { trade_status: 'untradable', delisting_time: 1 } },
    FUTURES: { halted: { status: 'suspend' }, delisted: { status: 'delisting', in_delisting: true } },
  },
  bitget: {
    SPOT: { halted: { status: 'halt' }, delisted: { status: 'offline' } },
    FUTURES: { halted: { symbolStatus: 'maintain' }, delisted: { symbolStatus: 'off' } },
  },
};

/** A venue's market row as its list shows it now: unchanged while it trades, else with the venue's status. */
export function withVenueStatus(
  state: MarketState, exchange: ExchangeName, market: Market, ticker: string, row: Record<string, unknown>,
): Record<string, unknown> {
  const status = state.statusOf(exchange, market, ticker);
  return status === 'trading' ? row : { ...row, ...FIELDS[exchange][market][status] };
}
