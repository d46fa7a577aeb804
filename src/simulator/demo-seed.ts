import { EXCHANGE_NAMES } from '../market-model/exchanges.js';
import type { Instrument } from './instruments.js';
import type { SimNetwork } from './network-state.js';
import type { Rng } from './random-walk.js';

/**
 * What the demo simulator starts with, so a newcomer sees the product do its job: every base has
 * a transfer network on all five venues with a realistic withdrawal fee, and a few of them are
 * closed for withdrawal or deposit somewhere, as venues close wallets for maintenance.
 */

/** The chain a base moves on; tokens of another chain name that chain. */
const CHAIN: Readonly<Record<string, string>> = {
  ETH: 'ERC20', LINK: 'ERC20', PEPE: 'ERC20', SHIB: 'ERC20', ARB: 'ARBONE', OP: 'OPTIMISM',
  BNB: 'BSC', TRX: 'TRC20', AVAX: 'AVAXC', BABYDOGE: 'BSC',
};

/** A withdrawal costs about this much, in USDT, on most chains; ERC20 tokens and BTC cost more. */
const FEE_USDT: Readonly<Record<string, number>> = { BTC: 1.5, ERC20: 2.5 };
const DEFAULT_FEE_USDT = 0.6;
/** Share of (base, venue) pairs closed one way or the other. */
const CLOSED_SHARE = 0.06;

export function chainOf(base: string): string {
  return CHAIN[base] ?? base;
}

/** Rounds a fee in base units to two significant figures, as venues publish them. */
function feeInBase(usdt: number, mid: number): number {
  return Number((usdt / mid).toPrecision(2));
}

export function demoNetworks(instruments: readonly Instrument[], rng: Rng): SimNetwork[] {
  const out: SimNetwork[] = [];
  for (const i of instruments) {
    const network = chainOf(i.base);
    const withdrawFee = feeInBase(FEE_USDT[network] ?? DEFAULT_FEE_USDT, i.mid);
    for (const exchange of EXCHANGE_NAMES) {
      const closed = rng() < CLOSED_SHARE;
      const withdrawClosed = closed && rng() < 0.5;
      out.push({ exchange, asset: i.base, network, withdrawEnabled: !withdrawClosed, depositEnabled: !(closed && !withdrawClosed), withdrawFee });
    }
  }
  return out;
}
