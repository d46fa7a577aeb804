import type { ExchangeName } from '../market-model/exchanges.js';

/** One chain a venue says a coin lives on, with the token's contract address there. */
export interface ContractAddress {
  /** The network code as ccxt unifies it (`ERC20`, `BEP20`, `SOL`), any case. */
  readonly network: string;
  readonly address: string;
}

/** What one venue's currency list says about an asset (the base after lots are read). */
export interface VenueCoin {
  readonly exchange: ExchangeName;
  readonly asset: string;
  readonly contracts: readonly ContractAddress[];
}

/**
 * `same`: an address on a network both venues name matches. `different`: both venues give an
 * address on at least one common network and none of them match: two coins under one name.
 * `unknown`: no common network with an address on both sides; the price check decides.
 */
export type Identity =
  | { readonly kind: 'same'; readonly network: string }
  | { readonly kind: 'different'; readonly network: string; readonly addresses: readonly [string, string] }
  | { readonly kind: 'unknown' };

/** A venue's asset that names another coin than the other venues' (or than a majority of them). */
export interface ContractMismatch {
  readonly exchange: ExchangeName;
  readonly asset: string;
  readonly reason: string;
  /** Its address and the other side's, on the network compared. */
  readonly network: string;
  readonly address: string;
  readonly otherAddress: string;
}

// EVM addresses are hex and case-insensitive (the mixed case is only a checksum); base58
// addresses (Solana, TRON) are case-sensitive and compared exactly.
const EVM_ADDRESS = /^0x[0-9a-f]{40}$/i;

function normalise(address: string): string {
  const trimmed = address.trim();
  return EVM_ADDRESS.test(trimmed) ? trimmed.toLowerCase() : trimmed;
}

function byNetwork(contracts: readonly ContractAddress[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const c of contracts) {
    const address = normalise(c.address);
    if (address === '') continue;
    const network = c.network.trim().toUpperCase();
    let set = out.get(network);
    if (!set) out.set(network, (set = new Set<string>()));
    set.add(address);
  }
  return out;
}

/** Whether two venues' contract lists describe the same coin (rules: tickers). */
export function compareContracts(a: readonly ContractAddress[], b: readonly ContractAddress[]): Identity {
  const left = byNetwork(a);
  const right = byNetwork(b);
  let mismatch: Identity | null = null;
  for (const [network, addresses] of [...left].sort(([x], [y]) => x.localeCompare(y))) {
    const others = right.get(network);
    if (!others) continue;
    const match = [...addresses].find((address) => others.has(address));
    if (match !== undefined) return { kind: 'same', network };
    mismatch ??= { kind: 'different', network, addresses: [[...addresses][0] ?? '', [...others][0] ?? ''] };
  }
  return mismatch ?? { kind: 'unknown' };
}

/**
 * Groups the venues listing an asset by proven identity and names the venues whose coin is not
 * the majority's. Two venues that prove different coins with no third to side with either are
 * both named (no one can say which is the "right" coin). A venue whose addresses prove nothing
 * against anyone is never named: the price check judges it. Output sorted by asset, exchange.
 */
export function contractMismatches(coins: readonly VenueCoin[]): ContractMismatch[] {
  const byAsset = new Map<string, VenueCoin[]>();
  for (const c of coins) {
    const list = byAsset.get(c.asset);
    if (list) list.push(c);
    else byAsset.set(c.asset, [c]);
  }
  const out: ContractMismatch[] = [];
  for (const [asset, venues] of [...byAsset].sort(([x], [y]) => x.localeCompare(y))) {
    out.push(...mismatchesOfAsset(asset, [...venues].sort((x, y) => x.exchange.localeCompare(y.exchange))));
  }
  return out;
}

function mismatchesOfAsset(asset: string, venues: readonly VenueCoin[]): ContractMismatch[] {
  const n = venues.length;
  const relation = (i: number, j: number): Identity => compareContracts(venues[i]?.contracts ?? [], venues[j]?.contracts ?? []);
  // Each venue's count of venues it proves the same coin as (itself included) and its first proven difference.
  const agree = venues.map((_, i) => 1 + venues.filter((_, j) => j !== i && relation(i, j).kind === 'same').length);
  const out: ContractMismatch[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const r = relation(i, j);
      // Excluded when another venue proves it a different coin and that venue is backed by at least as many.
      if (r.kind !== 'different' || (agree[j] ?? 0) < (agree[i] ?? 0)) continue;
      const me = venues[i];
      const other = venues[j];
      if (!me || !other) continue;
      out.push({
        exchange: me.exchange, asset, network: r.network, address: r.addresses[0], otherAddress: r.addresses[1],
        reason: `contract mismatch: ${asset} on ${me.exchange} is ${r.addresses[0]} on ${r.network}, on ${other.exchange} ${r.addresses[1]}: another coin under the same ticker`,
      });
      break;
    }
  }
  return out;
}
