import type { SimulatorVenue } from '../simulator-venue.js';
import { PERPETUALS } from './funding.js';
import { LIMITS } from './limits.js';
import { LOTS, STATUS } from './listing.js';
import { binanceProtocol } from './protocol.js';

export const binanceSim: SimulatorVenue = {
  name: 'binance',
  protocol: binanceProtocol,
  limits: LIMITS,
  lots: LOTS,
  status: STATUS,
  funding: { perpetuals: PERPETUALS, someHourly: true },
  upgrade: null,
  // Spot on stream.binance.com, USDⓈ-M futures on fstream.binance.com.
  marketOfUrl: (host) => (host.startsWith('fstream.') ? 'FUTURES' : 'SPOT'),
};

/** The name the simulator's registry loads every venue folder by. */
export const simulatorVenue = binanceSim;
