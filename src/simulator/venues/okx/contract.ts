import type { VenueContract } from '../venue-contract.js';

/** What the suites over every venue expect of okx (see VenueContract). */
export const venueContract: VenueContract = {
  dialRequest: /^GET \/[a-z0-9]*\.okx\.com/,
  halts: { halted: { SPOT: 'halted: state suspend', FUTURES: 'halted: state suspend' }, delisted: { SPOT: 'halted: state suspend', FUTURES: 'halted: state suspend' } },
};
