import type { VenueLots } from '../lots.js';
import type { VenueStatusFields } from '../venue-status.js';

/** Lot-named markets: USDⓈ-M `1000PEPEUSDT`, `1000SHIBUSDT`, `1MBABYDOGEUSDT` and spot `1MBABYDOGEUSDT`. */
export const LOTS: VenueLots = {
  SPOT: { BABYDOGE: { name: '1MBABYDOGE', multiplier: 1_000_000 } },
  FUTURES: {
    PEPE: { name: '1000PEPE', multiplier: 1000 },
    SHIB: { name: '1000SHIB', multiplier: 1000 },
    BABYDOGE: { name: '1MBABYDOGE', multiplier: 1_000_000 },
  },
};

/** Spot `status` `HALT` / `BREAK`, USDⓈ-M `SETTLING` / `CLOSE`. */
export const STATUS: VenueStatusFields = {
  SPOT: { halted: { status: 'HALT' }, delisted: { status: 'BREAK' } },
  FUTURES: { halted: { status: 'SETTLING' }, delisted: { status: 'CLOSE' } },
};
