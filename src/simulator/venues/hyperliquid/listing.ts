import type { VenueLots } from '../lots.js';
import type { VenueStatusFields } from '../venue-status.js';

/**
 * Perpetuals of coins priced in millionths of a dollar are listed per thousand units, with a
 * lower-case `k` in front of the coin (`kPEPE`: one contract and one price are for 1,000 PEPE).
 * Spot lists them per unit.
 */
export const LOTS: VenueLots = {
  FUTURES: {
    PEPE: { name: 'kPEPE', multiplier: 1000 },
    SHIB: { name: 'kSHIB', multiplier: 1000 },
    BONK: { name: 'kBONK', multiplier: 1000 },
    FLOKI: { name: 'kFLOKI', multiplier: 1000 },
  },
};

/**
 * Spot tokens bridged by Unit carry a `U` in front (`UBTC`); ccxt 4.5.84 maps these back to the
 * coin (its `spotCurrencyMapping`), so `BTC/USDC` is Unit BTC.
 */
export const SPOT_TOKEN_NAMES: Readonly<Record<string, string>> = { BTC: 'UBTC', ETH: 'UETH', SOL: 'USOL' };

/**
 * A perpetual the venue stops trading carries `isDelisted: true` (ccxt then marks it inactive);
 * the venue states no halt. Spot rows carry no status of their own: the simulator sets the same
 * flag there, which the service reads as it reads the perpetuals'.
 */
export const STATUS: VenueStatusFields = {
  SPOT: { halted: { isDelisted: true }, delisted: { isDelisted: true } },
  FUTURES: { halted: { isDelisted: true }, delisted: { isDelisted: true } },
};
