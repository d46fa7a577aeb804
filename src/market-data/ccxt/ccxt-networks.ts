import type { Currencies } from 'ccxt';
import type { CurrencyNetwork } from '../market-data-source.js';
import { VENUES } from '../../venues/registry.js';

/**
 * Per-currency network states from ccxt's unified currencies. ccxt maps each
 * exchange's network ids to common codes (ERC20, TRC20, BEP20…), which is what lets a buy
 * exchange's withdrawal network be matched with a sell exchange's deposit network.
 * A state ccxt leaves undefined counts as open: an unknown state cannot hold a route back (the `recorders` rule
 * defaults). Some venues publish their currencies; others only to a signed call (`networks.access`
 * of the venue's folder), made when their read-only API keys are configured. Without keys ccxt
 * answers those with `{}`, which (like `undefined`) gives no networks at all, i.e. unknown: the `cost-defaults` rule defaults, estimated.
 */
export function toNetworks(currencies: Currencies | undefined): CurrencyNetwork[] {
  const out: CurrencyNetwork[] = [];
  for (const currency of Object.values(currencies ?? {})) {
    const networks: Record<string, unknown> = currency.networks ?? {};
    for (const [code, raw] of Object.entries(networks)) {
      if (typeof raw !== 'object' || raw === null) continue;
      const n = raw as Record<string, unknown>;
      out.push({
        asset: currency.code,
        network: (typeof n.network === 'string' ? n.network : code).toUpperCase(),
        withdrawEnabled: n.withdraw !== false,
        depositEnabled: n.deposit !== false,
        withdrawFee: typeof n.fee === 'number' && Number.isFinite(n.fee) ? n.fee : null,
        ...contractOf(n.info),
      });
    }
  }
  return out;
}

// ccxt 4.5.84 keeps each network's contract address only in the venue's own row, under the
// field its folder names (`networks.contractField`; rules: tickers).
const CONTRACT_FIELDS = [...new Set(VENUES.map((v) => v.networks.contractField))];

function contractOf(info: unknown): { contract?: string } {
  if (typeof info !== 'object' || info === null) return {};
  const row = info as Record<string, unknown>;
  for (const field of CONTRACT_FIELDS) {
    const value = row[field];
    if (typeof value === 'string' && value.trim() !== '') return { contract: value.trim() };
  }
  return {};
}
