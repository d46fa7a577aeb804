import { binanceProtocol } from './binance.js';
import { bitgetProtocol } from './bitget.js';
import { bybitProtocol } from './bybit.js';
import { gateProtocol } from './gate.js';
import { okxProtocol } from './okx.js';
import type { ExchangeProtocol } from './protocol.js';

/** Every simulated exchange protocol; the first whose `ownsHost` matches serves a request. */
export const EXCHANGE_PROTOCOLS: readonly ExchangeProtocol[] = [
  binanceProtocol, bybitProtocol, okxProtocol, gateProtocol, bitgetProtocol,
];
