import type { SimulatorVenue } from '../simulator-venue.js';
import { PERPETUALS } from './funding.js';
import { LIMITS } from './limits.js';
import { LOTS, STATUS } from './listing.js';
import { asterProtocol } from './protocol.js';

export const asterSim: SimulatorVenue = {
  name: 'aster',
  protocol: asterProtocol,
  limits: LIMITS,
  lots: LOTS,
  status: STATUS,
  // Its perpetuals pay every 8 h or 4 h; none hourly is known.
  funding: { perpetuals: PERPETUALS, someHourly: false },
  upgrade: null,
  // Spot on sstream.asterdex.com, perpetuals on fstream.asterdex.com.
  marketOfUrl: (host) => (host.startsWith('fstream.') ? 'FUTURES' : 'SPOT'),
};

/** The name the simulator's registry loads every venue folder by. */
export const simulatorVenue = asterSim;
