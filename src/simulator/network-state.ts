import { EXCHANGE_NAMES, type ExchangeName, parseExchangeName } from '../market-model/exchanges.js';
import type { Validated } from './control-validation.js';

/** Transfer state of one asset on one network of one exchange (PUT /_sim/networks; rules: operating). */
export interface SimNetwork {
  exchange: ExchangeName;
  /** Base currency, upper case (`ETH`). */
  asset: string;
  /** Sent to clients as the exchange's chain name, upper case (`ERC20`). */
  network: string;
  withdrawEnabled: boolean;
  depositEnabled: boolean;
  /** Base units. */
  withdrawFee: number;
  /** The token's contract address on this network, as the venue's currency list gives it; absent: none given. */
  contract?: string;
}

/** Networks set through the control API; an asset never set is not listed (its state is unknown). */
export class NetworkBook {
  private readonly byKey = new Map<string, SimNetwork>();

  apply(update: SimNetwork): SimNetwork {
    this.byKey.set(`${update.exchange}|${update.asset}|${update.network}`, update);
    return update;
  }

  /** One exchange's networks grouped by asset, in the order first set. */
  byAsset(exchange: ExchangeName): Map<string, SimNetwork[]> {
    const out = new Map<string, SimNetwork[]>();
    for (const n of this.byKey.values()) {
      if (n.exchange === exchange) out.set(n.asset, [...(out.get(n.asset) ?? []), n]);
    }
    return out;
  }

  list(): SimNetwork[] {
    return [...this.byKey.values()];
  }
}

type Json = Record<string, unknown>;
const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const NAME = /^[A-Za-z0-9_-]{1,32}$/;
const CONTRACT = /^[A-Za-z0-9]{1,128}$/;

/** `[{ exchange, asset, network, withdrawEnabled, depositEnabled, withdrawFee }]`; `known` holds the simulated bases. */
export function validateNetworks(body: unknown, known: ReadonlySet<string>): Validated<SimNetwork[]> {
  if (!Array.isArray(body)) return fail('body must be an array of networks');
  if (body.length === 0) return fail('body must contain at least one network');
  const out: SimNetwork[] = [];
  for (const [index, item] of body.entries()) {
    const checked = networkItem(item, `[${index}]`, known);
    if (!checked.ok) return checked;
    out.push(checked.value);
  }
  return { ok: true, value: out };
}

function networkItem(item: unknown, at: string, known: ReadonlySet<string>): Validated<SimNetwork> {
  if (!isObject(item)) return fail(`${at} must be an object`);
  const exchange = typeof item.exchange === 'string' ? parseExchangeName(item.exchange) : null;
  if (!exchange) return fail(`${at}.exchange must be one of ${EXCHANGE_NAMES.join(', ')}`);
  const asset = typeof item.asset === 'string' ? item.asset.toUpperCase() : '';
  if (!known.has(asset)) return fail(`${at}.asset must be a simulated base currency`);
  if (typeof item.network !== 'string' || !NAME.test(item.network)) return fail(`${at}.network must be a name of 1-32 letters, digits, _ or -`);
  for (const flag of ['withdrawEnabled', 'depositEnabled'] as const) {
    if (typeof item[flag] !== 'boolean') return fail(`${at}.${flag} must be a boolean`);
  }
  const fee = item.withdrawFee;
  if (typeof fee !== 'number' || !Number.isFinite(fee) || fee < 0) return fail(`${at}.withdrawFee must be a number of at least 0`);
  const contract = item.contract;
  if (contract !== undefined && (typeof contract !== 'string' || !CONTRACT.test(contract))) {
    return fail(`${at}.contract must be an address of 1-128 letters and digits`);
  }
  return {
    ok: true,
    value: {
      exchange, asset, network: item.network.toUpperCase(),
      withdrawEnabled: item.withdrawEnabled === true, depositEnabled: item.depositEnabled === true, withdrawFee: fee,
      ...(typeof contract === 'string' ? { contract } : {}),
    },
  };
}
