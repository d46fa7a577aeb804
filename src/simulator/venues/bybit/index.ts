import type { SimulatorVenue } from '../simulator-venue.js';
import { PERPETUALS } from './funding.js';
import { LIMITS } from './limits.js';
import { LOTS, STATUS } from './listing.js';
import { bybitProtocol } from './protocol.js';

export const bybitSim: SimulatorVenue = {
  name: 'bybit',
  protocol: bybitProtocol,
  limits: LIMITS,
  lots: LOTS,
  status: STATUS,
  funding: { perpetuals: PERPETUALS, someHourly: true },
  upgrade: null,
  // One host, a path per category: /v5/public/spot, /v5/public/linear.
  marketOfUrl: (_host, path) => (path.includes('/spot') ? 'SPOT' : 'FUTURES'),
};

/** The name the simulator's registry loads every venue folder by. */
export const simulatorVenue = bybitSim;
