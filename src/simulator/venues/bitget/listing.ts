import type { VenueStatusFields } from '../venue-status.js';

/** Spot `status` `halt` / `offline`, futures `symbolStatus` `maintain` / `off`. Every coin is quoted per unit. */
export const STATUS: VenueStatusFields = {
  SPOT: { halted: { status: 'halt' }, delisted: { status: 'offline' } },
  FUTURES: { halted: { symbolStatus: 'maintain' }, delisted: { symbolStatus: 'off' } },
};
