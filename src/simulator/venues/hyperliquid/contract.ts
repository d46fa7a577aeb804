import type { VenueContract } from '../venue-contract.js';

/** What the suites over every venue expect of hyperliquid (see VenueContract). */
export const venueContract: VenueContract = {
  dialRequest: /^GET \/api\.hyperliquid\.xyz/,
  // Its market rows carry one flag: a halted market and a delisted one both read isDelisted.
  halts: { halted: { SPOT: 'delisted: isDelisted true', FUTURES: 'delisted: isDelisted true' }, delisted: { SPOT: 'delisted: isDelisted true', FUTURES: 'delisted: isDelisted true' } },
};
