import type { VenueContract } from '../venue-contract.js';

/** What the suites over every venue expect of gate (see VenueContract). */
export const venueContract: VenueContract = {
  dialRequest: /^GET \/[a-z-]*\.gateio\.ws/,
  halts: { halted: { SPOT: 'halted: trade_status untradable', FUTURES: 'halted: status suspend' }, delisted: { SPOT: 'halted: trade_status untradable', FUTURES: 'delisting: status delisting' } },
};
