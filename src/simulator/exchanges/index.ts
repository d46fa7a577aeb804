import { binanceProtocol } from './binance.js';
import { bybitProtocol } from './bybit.js';
import type { ExchangeProtocol } from './protocol.js';

/** Every simulated exchange protocol; the first whose `ownsHost` matches serves a request. */
export const EXCHANGE_PROTOCOLS: readonly ExchangeProtocol[] = [binanceProtocol, bybitProtocol];
