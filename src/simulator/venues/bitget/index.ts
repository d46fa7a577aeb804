import { NO_LOTS } from '../lots.js';
import type { SimulatorVenue } from '../simulator-venue.js';
import { PERPETUALS } from './funding.js';
import { LIMITS } from './limits.js';
import { STATUS } from './listing.js';
import { bitgetProtocol } from './protocol.js';

export const bitgetSim: SimulatorVenue = {
  name: 'bitget',
  protocol: bitgetProtocol,
  limits: LIMITS,
  lots: NO_LOTS,
  status: STATUS,
  funding: { perpetuals: PERPETUALS, someHourly: true },
  upgrade: null,
  // One public socket carries both markets.
  marketOfUrl: () => 'SPOT',
};

/** The name the simulator's registry loads every venue folder by. */
export const simulatorVenue = bitgetSim;
