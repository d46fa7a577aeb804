import { EXCHANGE_NAMES, type ExchangeName } from '../../src/market-model/exchanges.js';
import type { VenueContract } from '../../src/simulator/venues/venue-contract.js';

/** Each venue's expectations, from its folder's contract.ts, in the registry's order. */
async function load(name: ExchangeName): Promise<[ExchangeName, VenueContract]> {
  // A plain specifier: a template literal in import() would make vitest's bundler look for `.js` files only.
  const specifier = `../../src/simulator/venues/${name}/contract.js`;
  const module = (await import(/* @vite-ignore */ specifier)) as { venueContract?: VenueContract };
  if (!module.venueContract) throw new Error(`src/simulator/venues/${name}/contract.ts exports no venueContract`);
  return [name, module.venueContract];
}

export const VENUE_CONTRACTS: Readonly<Record<ExchangeName, VenueContract>> = Object.fromEntries(await Promise.all(EXCHANGE_NAMES.map(load))) as Record<ExchangeName, VenueContract>;
