import type { VenueLots } from '../lots.js';
import type { VenueStatusFields } from '../venue-status.js';

/** Lot-named linear perpetuals: `1000PEPEUSDT`, `SHIB1000USDT`, `1000000BABYDOGEUSDT`. */
export const LOTS: VenueLots = {
  FUTURES: {
    PEPE: { name: '1000PEPE', multiplier: 1000 },
    SHIB: { name: 'SHIB1000', multiplier: 1000 },
    BABYDOGE: { name: '1000000BABYDOGE', multiplier: 1_000_000 },
  },
};

/** `status` `Closed` for both: the venue publishes no halt state. */
export const STATUS: VenueStatusFields = {
  SPOT: { halted: { status: 'Closed' }, delisted: { status: 'Closed' } },
  FUTURES: { halted: { status: 'Closed' }, delisted: { status: 'Closed' } },
};
