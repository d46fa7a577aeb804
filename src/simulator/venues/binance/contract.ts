import type { VenueContract } from '../venue-contract.js';

/** What the suites over every venue expect of binance (see VenueContract). */
export const venueContract: VenueContract = {
  dialRequest: /^GET \/[a-z]*stream\.binance\.com/,
  halts: { halted: { SPOT: 'halted: status HALT', FUTURES: 'halted: status SETTLING' }, delisted: { SPOT: 'delisted: status BREAK', FUTURES: 'delisted: status CLOSE' } },
};
