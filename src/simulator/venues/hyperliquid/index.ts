import type { SimulatorVenue } from '../simulator-venue.js';
import { PERPETUALS } from './funding.js';
import { LIMITS } from './limits.js';
import { LOTS, STATUS } from './listing.js';
import { hyperliquidProtocol } from './protocol.js';

export const hyperliquidSim: SimulatorVenue = {
  name: 'hyperliquid',
  protocol: hyperliquidProtocol,
  limits: LIMITS,
  lots: LOTS,
  status: STATUS,
  // Every perpetual pays every hour.
  funding: { perpetuals: PERPETUALS, someHourly: false, everyHours: 1 },
  upgrade: null,
  // One socket for spot and perpetuals (api.hyperliquid.xyz/ws): counted as spot.
  marketOfUrl: () => 'SPOT',
};

/** The name the simulator's registry loads every venue folder by. */
export const simulatorVenue = hyperliquidSim;
