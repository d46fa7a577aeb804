import type { VenueContract } from '../venue-contract.js';

/** What the suites over every venue expect of bitget (see VenueContract). */
export const venueContract: VenueContract = {
  dialRequest: /^GET \/ws\.bitget\.com/,
  halts: { halted: { SPOT: 'halted: status halt', FUTURES: 'halted: symbolStatus maintain' }, delisted: { SPOT: 'delisted: status offline', FUTURES: 'delisted: symbolStatus off' } },
};
