import { NO_LOTS, type VenueLots } from '../lots.js';
import type { VenueStatusFields } from '../venue-status.js';

/**
 * No lot-named markets known: its lists seen so far quote every coin per unit (a `1000`-prefixed
 * name would be added here as binance's are).
 */
export const LOTS: VenueLots = NO_LOTS;

/** binance-like `status`: spot `HALT` / `BREAK`, perpetuals `SETTLING` / `CLOSE`. */
export const STATUS: VenueStatusFields = {
  SPOT: { halted: { status: 'HALT' }, delisted: { status: 'BREAK' } },
  FUTURES: { halted: { status: 'SETTLING' }, delisted: { status: 'CLOSE' } },
};
