import type { Clock } from './clock.js';
import type { ExchangeName } from '../market-model/exchanges.js';
import { type Exclusion, NameCollisionDetector, type NameCollisionOptions } from './name-collision.engine.js';
import type { QuoteBook } from './quote-book.js';
import type { ConnectionEvent } from './market-data-source.js';
import { contractMismatches, type ContractMismatch, compareContracts, type VenueCoin } from './contract-identity.engine.js';
import { type DenyEntry, isDenied } from '../market-model/symbol-denylist.js';

/** How often the spot book is judged for name collisions; the decision needs minutes anyway. */
export const NAME_COLLISION_CHECK_MS = 1000;

/** A venue's ticker excluded from opportunities, as /health/market shows it. */
export interface ExcludedTicker {
  ticker: string;
  exchange: ExchangeName;
  reason: string;
  /** RFC 3339: since when its price has been off, its contract was seen to differ, or it is denied. */
  since: string;
  /** A contract mismatch: the network compared, this exchange's address and the other side's. */
  contract?: { network: string; address: string; otherAddress: string };
}

/** The venues' contract addresses per asset; `version` changes whenever they may have. */
export interface ContractSource {
  readonly contractsVersion: number;
  venueCoins(): VenueCoin[];
}

/** Identity by contract and by hand, beside the price rule (rules: tickers). */
export interface IdentityOptions {
  contracts?: ContractSource;
  denylist?: readonly DenyEntry[];
}

/** What the opportunity detectors ask (tests pass `{ isExcluded: () => false }`). */
export type CollisionGuard = Pick<NameCollisions, 'isExcluded'>;

/**
 * Runs the name-collision rule (`name-collision.engine.ts`) over the fresh spot quotes of the book
 * once a second, off the tick path, and answers the opportunity detectors whether a venue's ticker
 * is excluded. Started by the market-data service with the feeds.
 */
export class NameCollisions {
  private readonly detector: NameCollisionDetector;
  private timer: NodeJS.Timeout | null = null;
  private contractsSeen = -1;
  /** `exchange|asset` → its contract mismatch, with when it was first seen. */
  private mismatches = new Map<string, ContractMismatch & { since: number }>();
  /** `exchange|asset` proven by contract to be the same coin as on another venue: the price rule does not apply. */
  private proven = new Set<string>();
  /** `exchange|ticker` of spot markets out of their feed (refused, halted, delisted): in no route until listed again. */
  private readonly refusedSpot = new Set<string>();

  constructor(
    options: NameCollisionOptions,
    private readonly book: QuoteBook,
    private readonly clock: Clock,
    private readonly identity: IdentityOptions = {},
  ) {
    this.detector = new NameCollisionDetector(options);
  }

  start(): void {
    this.timer ??= setInterval(() => this.evaluate(), NAME_COLLISION_CHECK_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  evaluate(): void {
    this.refreshContracts();
    const fresh = [...this.book.snapshot({ market: 'SPOT' })].filter((q) => !q.stale);
    this.detector.evaluate(fresh, this.clock.now());
  }

  /** A feed event: a refused spot market leaves every route at once, a listed-again one rejoins. */
  onFeedEvent(event: ConnectionEvent): void {
    if (event.market !== 'SPOT' || event.ticker === undefined) return;
    if (event.state === 'refused') this.refusedSpot.add(keyOf(event.exchange, event.ticker));
    else if (event.state === 'listed') this.refusedSpot.delete(keyOf(event.exchange, event.ticker));
  }

  isExcluded(exchange: ExchangeName, ticker: string): boolean {
    if (this.refusedSpot.size > 0 && this.refusedSpot.has(keyOf(exchange, ticker))) return true;
    const denylist = this.identity.denylist;
    if (denylist && denylist.length > 0 && isDenied(denylist, exchange, ticker)) return true;
    if (this.mismatches.size > 0 && this.mismatches.has(keyOf(exchange, baseOf(ticker)))) return true;
    return this.detector.isExcluded(exchange, ticker) && !this.proven.has(keyOf(exchange, baseOf(ticker)));
  }

  list(): ExcludedTicker[] {
    const byPrice = this.detector.list()
      .filter((e: Exclusion) => !this.proven.has(keyOf(e.exchange, baseOf(e.ticker))))
      .map((e: Exclusion) => ({ ticker: e.ticker, exchange: e.exchange, reason: e.reason, since: new Date(e.since).toISOString() }));
    const spotTickers = [...new Set([...this.book.snapshot({ market: 'SPOT' })].map((q) => `${q.exchange}|${q.ticker}`))];
    const byContract = spotTickers.flatMap((key) => {
      const [exchange = '', ticker = ''] = key.split('|');
      const m = this.mismatches.get(keyOf(exchange, baseOf(ticker)));
      return m ? [{ ticker, exchange: m.exchange, reason: m.reason, since: new Date(m.since).toISOString(), contract: { network: m.network, address: m.address, otherAddress: m.otherAddress } }] : [];
    });
    const denylist = this.identity.denylist ?? [];
    const denied = denylist.length === 0 ? [] : spotTickers.flatMap((key) => {
      const [exchange = '', ticker = ''] = key.split('|');
      const name = exchange as ExchangeName;
      return isDenied(denylist, name, ticker) ? [{ ticker, exchange: name, reason: 'denied: listed in SYMBOL_DENYLIST', since: new Date(0).toISOString() }] : [];
    });
    return [...denied, ...byContract, ...byPrice];
  }

  /** Re-judges contracts when the venues' currency lists changed: a mismatch counts at once, no price wait. */
  private refreshContracts(): void {
    const source = this.identity.contracts;
    if (!source || source.contractsVersion === this.contractsSeen) return;
    this.contractsSeen = source.contractsVersion;
    const coins = source.venueCoins();
    const now = this.clock.now();
    const next = new Map<string, ContractMismatch & { since: number }>();
    for (const m of contractMismatches(coins)) {
      const key = keyOf(m.exchange, m.asset);
      next.set(key, { ...m, since: this.mismatches.get(key)?.since ?? now });
    }
    this.mismatches = next;
    this.proven = provenSame(coins);
  }
}

const keyOf = (exchange: string, asset: string): string => `${exchange}|${asset}`;

const baseOf = (ticker: string): string => ticker.slice(0, Math.max(0, ticker.indexOf('-')));

/** Venues whose asset a contract address on a common network proves the same as on another venue. */
function provenSame(coins: readonly VenueCoin[]): Set<string> {
  const byAsset = new Map<string, VenueCoin[]>();
  for (const c of coins) byAsset.set(c.asset, [...(byAsset.get(c.asset) ?? []), c]);
  const out = new Set<string>();
  for (const venues of byAsset.values()) {
    for (const a of venues) {
      if (venues.some((b) => b !== a && compareContracts(a.contracts, b.contracts).kind === 'same')) out.add(keyOf(a.exchange, a.asset));
    }
  }
  return out;
}
