import type { VenueStatusFields } from '../venue-status.js';

/** `state` `suspend` for both. Every coin is quoted per unit (the contract size carries any lot). */
export const STATUS: VenueStatusFields = {
  SPOT: { halted: { state: 'suspend' }, delisted: { state: 'suspend' } },
  FUTURES: { halted: { state: 'suspend' }, delisted: { state: 'suspend' } },
};
