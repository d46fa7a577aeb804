import { EXCHANGE_NAMES, type ExchangeName } from '../../market-model/exchanges.js';
import type { ExchangeProtocol } from './protocol.js';
import type { SimulatorVenue } from './simulator-venue.js';

/**
 * The simulator's venues, one folder each, loaded for every name of the service's registry
 * (src/venues/registry.ts): a new venue needs its folder here, not a line in this file. Modules
 * of a venue folder must not import this file (directly or through a shared helper): the folder
 * is loaded while this module waits, so such an import would wait on itself.
 */
interface VenueModule {
  readonly simulatorVenue?: SimulatorVenue;
}

async function load(name: ExchangeName): Promise<SimulatorVenue> {
  // A plain specifier: a template literal in import() would make vitest's bundler look for `.js` files only.
  const specifier = `./${name}/index.js`;
  const module = (await import(/* @vite-ignore */ specifier)) as VenueModule;
  const venue = module.simulatorVenue;
  if (!venue) throw new Error(`src/simulator/venues/${name}/index.ts exports no simulatorVenue`);
  if (venue.name !== name || venue.protocol.name !== name) {
    throw new Error(`src/simulator/venues/${name}/index.ts exports the venue ${venue.name} (protocol ${venue.protocol.name})`);
  }
  return venue;
}

/** Every simulated venue, in the registry's order. */
export const SIM_VENUES: readonly SimulatorVenue[] = await Promise.all(EXCHANGE_NAMES.map(load));

const BY_NAME = new Map<ExchangeName, SimulatorVenue>(SIM_VENUES.map((v) => [v.name, v]));

/** What the simulator knows of a venue. */
export function simVenueOf(name: ExchangeName): SimulatorVenue {
  const venue = BY_NAME.get(name);
  if (!venue) throw new Error(`no simulated venue ${name}`);
  return venue;
}

/** Every simulated exchange protocol; the first whose `ownsHost` matches serves a request. */
export const EXCHANGE_PROTOCOLS: readonly ExchangeProtocol[] = SIM_VENUES.map((v) => v.protocol);
