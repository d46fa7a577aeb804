import type { Market } from '../../market-model/exchanges.js';

/**
 * What the suites that run over every venue expect of one of them, beside its protocol. Each venue
 * folder states its own in `contract.ts`, so a new venue brings its expectations with it and the
 * shared suites (dead network paths, halts) need no line of it.
 */
export interface VenueContract {
  /** The request line of a dial of its websockets as a proxy in front sees it: `GET /<venue host>…`. */
  readonly dialRequest: RegExp;
  /** /health/market's reason for a market the simulator halted or delisted, per market type. */
  readonly halts: Readonly<Record<'halted' | 'delisted', Readonly<Record<Market, string>>>>;
}
