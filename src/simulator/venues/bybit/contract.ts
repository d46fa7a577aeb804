import type { VenueContract } from '../venue-contract.js';

/** What the suites over every venue expect of bybit (see VenueContract). */
export const venueContract: VenueContract = {
  dialRequest: /^GET \/stream\.bybit\.com/,
  halts: { halted: { SPOT: 'delisted: status Closed', FUTURES: 'delisted: status Closed' }, delisted: { SPOT: 'delisted: status Closed', FUTURES: 'delisted: status Closed' } },
};
