/**
 * What the service knows of one venue, in one place (docs/architecture.md "A venue is one
 * folder"). Each venue's folder exports one `VenueDescriptor`; `registry.ts` lists them. The rest
 * of the service reads capabilities from here ("books at most 20 levels", "pays funding hourly")
 * and never names a venue. Figures are the venue's published limits or ours kept under them;
 * docs/venues.md gives the source and the date read of each.
 *
 * A descriptor is data: the market-data core turns each capability into ccxt calls, so this
 * folder imports nothing of ours and no ccxt code.
 */

/** The two market kinds the service watches (the market model's `Market`). */
export type VenueMarket = 'SPOT' | 'FUTURES';

/** How a venue's ccxt pro client is built (ccxt 4.5.84). */
export interface VenueCcxt {
  /** The ccxt exchange id, also the file `js/src/pro/<id>.js`. */
  readonly id: string;
  /**
   * ccxt `options` that keep loadMarkets to spot and the perpetuals the service uses, with the
   * fewest REST calls.
   */
  readonly options: Readonly<Record<string, unknown>>;
  /** ccxt `options` added only to the client that holds read-only API keys. */
  readonly keyedOptions?: Readonly<Record<string, unknown>>;
  /**
   * Lot names the venue writes with a letter in front instead of a number (`kPEPE`: 1,000 PEPE),
   * by prefix and units per lot. ccxt upper-cases such a name (`KPEPE`) and would read it as
   * another coin; the factory renames it to the lot form the market model reads (`1000PEPE`).
   */
  readonly lotPrefixes?: Readonly<Record<string, number>>;
}

/** The venue's quote feeds: how symbols are spread over connections and how fast sockets may open. */
export interface VenueFeeds {
  /** Symbols per websocket connection (one ccxt client per connection). */
  readonly perConnection: number;
  /** Symbols per subscribe request, each request one watch call on the connection. */
  readonly perSubscribe: number;
  /** New connections per IP and window (null: the venue states none). */
  readonly dials: { readonly dials: number; readonly windowMs: number } | null;
  /**
   * An error text by which the venue announces a service upgrade on a socket ("please
   * reconnect"): the feed re-dials at once instead of waiting for the close.
   */
  readonly upgradeNotice?: RegExp;
  /**
   * The ccxt watch a market's best bid and ask come from: `bidsAsks` (watchBidsAsks, the default)
   * or `orderBook` (watchOrderBook, one subscription per symbol, its top levels read as the
   * quote) on a venue whose ccxt client has no bid/ask channel.
   */
  readonly quotesFrom?: 'bidsAsks' | 'orderBook';
}

/** How the venue's order books are watched and how fast their subscriptions may change. */
export interface VenueDepth {
  /** What ccxt's `watchOrderBook` is called with: it selects the venue's channel and so its depth. */
  readonly limit: number;
  /** Symbols per subscribe request. */
  readonly perSubscribe: number;
  /** Symbols per unsubscribe request. */
  readonly perUnsubscribe: number;
  /** Depth requests per second on one connection, under the venue's message rate with room for pings. */
  readonly perSecond: number;
  /** Subscribe requests (unsubscribes included) per hour on one connection (null: not limited). */
  readonly perHour: number | null;
  /** ccxt has `watchOrderBookForSymbols` for this venue (else one call per symbol). */
  readonly forSymbols: boolean;
  /** ccxt's `unWatchOrderBookForSymbols` works here (else one unsubscribe per symbol). */
  readonly unwatchForSymbols: boolean;
  /** The unsubscribe names its channel by the depth it was subscribed with (`{ limit }` passed again). */
  readonly unwatchNamesLimit: boolean;
  /**
   * False where ccxt sends the unsubscribe but never settles it (it has no handler for the venue's
   * acknowledgement) and keeps the book recorded as subscribed, so that watching it again would
   * send nothing: the core then drops ccxt's records of the book itself. Absent: ccxt settles it.
   */
  readonly unwatchSettles?: false;
  /** Sockets per market type ccxt may open for books (ccxt `streamLimits`), where it opens one per subscription. */
  readonly socketsPerType?: number;
}

/**
 * Where the funding interval of a perpetual comes from (ccxt 4.5.84):
 * - `intervals-call`: ccxt's fetchFundingIntervals, with `params`; a contract absent from the
 *   answer pays every `defaultHours` when given (else its rate's own interval);
 * - `instrument-minutes`: the perpetual's instrument row (`fundingInterval`, minutes), read fresh;
 * - `rate`: the interval ccxt puts on the rate itself.
 */
export type FundingIntervalSource =
  | { readonly kind: 'intervals-call'; readonly params: Readonly<Record<string, string>>; readonly defaultHours?: number; readonly nextTime: boolean }
  | { readonly kind: 'instrument-minutes'; readonly params: Readonly<Record<string, string>> }
  | { readonly kind: 'rate' };

/**
 * How fetchFundingRateHistory pages on the venue:
 * - `forward`: up to `size` oldest first from `since`, the next page from the newest + 1;
 * - `forward-window`: `[since, since + windowHours)` per page, at most `size` rows;
 * - `backward-after`: up to `size` newest first, the next page `after` the oldest;
 * - `backward-until`: up to `size` newest first in `[since, until]`, the next `until` the oldest − 1;
 * - `backward-page`: pages of `size` newest first, numbered from 1 (`pageNo`).
 */
export type FundingHistoryPaging =
  | { readonly kind: 'forward'; readonly size: number }
  | { readonly kind: 'forward-window'; readonly size: number; readonly windowHours: number }
  | { readonly kind: 'backward-after'; readonly size: number }
  | { readonly kind: 'backward-until'; readonly size: number }
  | { readonly kind: 'backward-page'; readonly size: number };

export interface VenueFunding {
  /** ccxt params of fetchFundingRates for the venue's USDT (or USDC) perpetuals. */
  readonly rateParams: Readonly<Record<string, string>>;
  readonly interval: FundingIntervalSource;
  /**
   * The member of ccxt's funding rate that holds the next payment time: `fundingTimestamp` unless
   * stated (some ccxt clients leave it empty and write `nextFundingTimestamp`).
   */
  readonly nextTimeField?: 'fundingTimestamp' | 'nextFundingTimestamp';
  /** Mark prices from ccxt's fetchMarkPrices (`params`) where the rate answer carries none. */
  readonly markPrices?: { readonly params: Readonly<Record<string, string>> };
  readonly history: FundingHistoryPaging;
  /** History calls per window, under the venue's own limit for the call. */
  readonly historyCalls: { readonly calls: number; readonly windowMs: number };
}

/** How the venue answers a client that calls its REST API too often. */
export interface VenueRestBan {
  /** The venue sends `Retry-After`, and the gate waits at least that long. */
  readonly readsRetryAfter: boolean;
  /** The least pause after a rate-limit answer (the venue's stated quiet time, or its limit's window). */
  readonly minPauseMs: number;
  /** A ban answer (binance 418) lasts at least this long whatever Retry-After says. */
  readonly banMinMs?: number;
}

/** The venue's endpoints as ccxt 4.5.84 names them in `urls.api`: what EXCHANGE_URLS can replace. */
export interface VenueEndpoints {
  /** Every leaf of ccxt's `urls.api` tree, `w` for a websocket URL, `h` for HTTP. */
  readonly leaves: Readonly<Record<string, 'w' | 'h'>>;
  /** The leaves the service uses, with ccxt's values: what the start log names. */
  readonly used: Readonly<Record<string, string>>;
  /** The leaf each market's quotes come from. */
  readonly quotes: Readonly<Record<VenueMarket, string>>;
  /** Where the service dials by default where that differs from ccxt (a venue moved before ccxt followed). */
  readonly defaults?: Readonly<Record<string, string>>;
}

/** The venue's currency networks. */
export interface VenueNetworks {
  /**
   * `public`: the venue publishes its currencies; `signed`: only to a call with read-only keys;
   * `none`: it has no deposit networks to list (an on-chain venue: see `onChain`), and no call is made.
   */
  readonly access: 'public' | 'signed' | 'none';
  /** The field of the venue's own network row that holds the token contract address. */
  readonly contractField: string;
}

/** A market's trading status as the venue writes it in its market rows. */
export interface VenueStatus {
  /** Fields of the venue's market row (ccxt `info`) that carry its status. */
  readonly fields: readonly string[];
  /** The venue's values of those fields for markets it does not trade now. */
  readonly states: Readonly<Record<string, 'halted' | 'delisting' | 'delisted'>>;
  /** Boolean fields of the row whose `true` puts the market in a state (gate `in_delisting`). */
  readonly flags?: Readonly<Record<string, 'halted' | 'delisting' | 'delisted'>>;
}

export interface VenueDescriptor<N extends string = string> {
  /** The service's own name of the venue (EXCHANGES, the API's `exchange`). */
  readonly name: N;
  /**
   * The currency its perpetuals settle in and its markets are compared in (USDT where unstated).
   * A USDC venue's markets are `BASE-USDC`; the service compares them with USDT markets only
   * through a published USDC/USDT rate, never 1:1.
   */
  readonly quoteCurrency?: 'USDT' | 'USDC';
  /**
   * Set for a venue that settles on its own chain: it publishes no withdrawal-fee table, and a
   * transfer to or from it goes through a bridge whose cost the service does not know.
   */
  readonly onChain?: { readonly transfer: string };
  /**
   * Watched when EXCHANGES is unset: the five the API's contract started with. A venue added later
   * is watched when EXCHANGES names it or says `all`.
   */
  readonly watchedByDefault: boolean;
  readonly ccxt: VenueCcxt;
  readonly feeds: VenueFeeds;
  readonly depth: VenueDepth;
  readonly funding: VenueFunding;
  readonly restBan: VenueRestBan;
  readonly endpoints: VenueEndpoints;
  readonly networks: VenueNetworks;
  readonly status: VenueStatus;
}

/** Every leaf named in `paths` (space-separated) of one kind: a shorthand for `endpoints.leaves`. */
export function leaves(kind: 'w' | 'h', paths: string): Record<string, 'w' | 'h'> {
  return Object.fromEntries(paths.split(' ').map((path) => [path, kind]));
}

/** A descriptor whose name keeps its literal type, so the registry can derive the names' union. */
export function defineVenue<const N extends string>(descriptor: VenueDescriptor<N>): VenueDescriptor<N> {
  return descriptor;
}
