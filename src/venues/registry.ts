import { aster } from './aster/aster.venue.js';
import { binance } from './binance/binance.venue.js';
import { bitget } from './bitget/bitget.venue.js';
import { bybit } from './bybit/bybit.venue.js';
import { gate } from './gate/gate.venue.js';
import { hyperliquid } from './hyperliquid/hyperliquid.venue.js';
import { okx } from './okx/okx.venue.js';
import type { VenueDescriptor } from './venue.js';

/**
 * Every venue the service supports, one line each (docs/architecture.md "A venue is one
 * folder"). The order is the API's: exchange lists, enums and the detector's ties follow it.
 */
export const VENUES = [binance, bybit, okx, gate, bitget, aster, hyperliquid] as const;

export type ExchangeName = (typeof VENUES)[number]['name'];

export const EXCHANGE_NAMES: readonly ExchangeName[] = VENUES.map((v) => v.name);

/** The venues watched when EXCHANGES is unset. */
export const DEFAULT_EXCHANGES: readonly ExchangeName[] = VENUES.filter((v) => v.watchedByDefault).map((v) => v.name);

/** The first venue of the registry: what a choice left open defaults to. */
export const FIRST_EXCHANGE: ExchangeName = VENUES[0].name;

const BY_NAME = new Map<string, VenueDescriptor<ExchangeName>>(VENUES.map((v) => [v.name, v]));

/** The descriptor of a supported venue. */
export function venueOf(name: ExchangeName): VenueDescriptor<ExchangeName> {
  const venue = BY_NAME.get(name);
  if (!venue) throw new Error(`no venue ${name}`);
  return venue;
}
