import type { VenueStatusFields } from '../venue-status.js';

/**
 * Spot `trade_status` `untradable` (a delisting also has `delisting_time`); futures `status`
 * `suspend`, or `in_delisting` with `status` `delisting`. Every coin is quoted per unit.
 */
export const STATUS: VenueStatusFields = {
  SPOT: { halted: { trade_status: 'untradable' }, delisted: { trade_status: 'untradable', delisting_time: 1 } },
  FUTURES: { halted: { status: 'suspend' }, delisted: { status: 'delisting', in_delisting: true } },
};
