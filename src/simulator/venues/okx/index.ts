import { NO_LOTS } from '../lots.js';
import type { SimulatorVenue } from '../simulator-venue.js';
import { MINUTE } from '../venue-limits.js';
import { PERPETUALS } from './funding.js';
import { LIMITS } from './limits.js';
import { STATUS } from './listing.js';
import { okxProtocol } from './protocol.js';

export const okxSim: SimulatorVenue = {
  name: 'okx',
  protocol: okxProtocol,
  limits: LIMITS,
  lots: NO_LOTS,
  status: STATUS,
  // Hourly funding is rare here.
  funding: { perpetuals: PERPETUALS, someHourly: false },
  // Notice 64008 ("reconnect") a minute before the socket closes for a service upgrade.
  upgrade: {
    noticeMs: MINUTE,
    frame: { event: 'notice', code: '64008', msg: 'The connection will soon be closed for a service upgrade. Please reconnect.', connId: 'sim' },
  },
  // One public socket carries both markets.
  marketOfUrl: () => 'SPOT',
};

/** The name the simulator's registry loads every venue folder by. */
export const simulatorVenue = okxSim;
