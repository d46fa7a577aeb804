import { NO_LOTS } from '../lots.js';
import type { SimulatorVenue } from '../simulator-venue.js';
import { PERPETUALS } from './funding.js';
import { LIMITS } from './limits.js';
import { STATUS } from './listing.js';
import { gateProtocol } from './protocol.js';

export const gateSim: SimulatorVenue = {
  name: 'gate',
  protocol: gateProtocol,
  limits: LIMITS,
  lots: NO_LOTS,
  status: STATUS,
  // Hourly funding is rare here.
  funding: { perpetuals: PERPETUALS, someHourly: false },
  upgrade: null,
  // Spot on api.gateio.ws, perpetuals on fx-ws.gateio.ws.
  marketOfUrl: (host) => (host.startsWith('fx-') ? 'FUTURES' : 'SPOT'),
};

/** The name the simulator's registry loads every venue folder by. */
export const simulatorVenue = gateSim;
