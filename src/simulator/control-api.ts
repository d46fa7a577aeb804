import { EXCHANGE_NAMES, type ExchangeName } from '../market-model/exchanges.js';
import {
  validateDrop, validateFault, validateLoad, validatePause, validateQuotes, validateWalk, type Validated,
} from './control-validation.js';
import { validateFunding } from './funding-validation.js';
import { validateNetworks } from './network-state.js';
import { validateBookQuery, validateBooks } from './book-validation.js';
import { validateDelist, validateMaintenance, validateRestLimit, validateStrict, validateUpgrade } from './strict-validation.js';
import { validateHalt, validateRestore } from './status-validation.js';
import type { MarketState } from './market-state.js';
import { nextFundingTimeOf } from './venues/funding-rest.js';
import { simVenueOf, SIM_VENUES } from './venues/index.js';
import { baseOf } from './venues/protocol.js';
import type { LoadGenerator } from './load-generator.js';
import type { RandomWalk } from './random-walk.js';
import type { WsHub } from './ws-hub.js';

/** The venues that announce a service upgrade before closing their sockets. */
const ANNOUNCE_UPGRADES: readonly ExchangeName[] = SIM_VENUES.filter((v) => v.upgrade !== null).map((v) => v.name);

export interface ControlReply {
  status: number;
  body: unknown;
}

export interface ControlDeps {
  state: MarketState;
  hub: WsHub;
  walk: RandomWalk;
  load: LoadGenerator;
  defaultWalkIntervalMs: number;
  /** Exchanges whose REST API answers 503 (POST /_sim/outage), for collector fault tests. */
  restDown: Set<ExchangeName>;
}

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request', 404: 'Not Found', 405: 'Method Not Allowed', 501: 'Not Implemented',
};

export function errorReply(status: number, message: string): ControlReply {
  return { status, body: { statusCode: status, message, error: REASONS[status] ?? 'Error' } };
}

function unwrap<T>(checked: Validated<T>, then: (value: T) => unknown): ControlReply {
  return checked.ok ? { status: 200, body: then(checked.value) } : errorReply(400, checked.message);
}

function state(deps: ControlDeps): unknown {
  const { state: market, hub, walk } = deps;
  const exchanges = Object.fromEntries(EXCHANGE_NAMES.map((name) => [name, hub.describe(name)]));
  const quotes = market.list().map((q) => ({
    exchange: q.exchange, market: q.market, ticker: q.ticker, bid: q.bid, ask: q.ask,
    bidQty: q.bidQty, askQty: q.askQty, volume: q.volume,
    updatedAt: new Date(q.updatedAt).toISOString(), paused: market.isPaused(q),
  }));
  return {
    walk: { enabled: walk.running, intervalMs: walk.intervalMs ?? null, hold: walk.holding }, strict: hub.strict.settings,
    maintenance: [...hub.strict.maintenance], delisted: market.delisted(), halted: market.halted(), exchanges, quotes,
  };
}

function fundingState(deps: ControlDeps): unknown {
  const now = Date.now();
  return deps.state.funding.list().map((f) => {
    const next = nextFundingTimeOf(f, now);
    return {
      exchange: f.exchange, ticker: f.ticker, fundingRate: f.fundingRate, intervalHours: f.intervalHours,
      nextFundingTime: next === null ? null : new Date(next).toISOString(), markPrice: deps.state.markPrice(f),
    };
  });
}

type Handler = (deps: ControlDeps, body: unknown, query: URLSearchParams) => ControlReply;

const known = (deps: ControlDeps): ReadonlySet<string> => new Set(deps.state.instruments.map((i) => i.ticker));

const ticks = (deps: ControlDeps): ReadonlyMap<string, number> => new Map(deps.state.instruments.map((i) => [i.ticker, i.tick]));

const knownBases = (deps: ControlDeps): ReadonlySet<string> => new Set(deps.state.instruments.map((i) => baseOf(i.ticker)));

// Route table: `METHOD path` → handler. Each handler validates, applies, and answers what it did.
const ROUTES: Readonly<Record<string, Handler>> = {
  'GET /_sim/state': (deps) => ({ status: 200, body: state(deps) }),
  'PUT /_sim/quotes': (deps, body) =>
    unwrap(validateQuotes(body, known(deps)), (updates) => ({ applied: updates.map((u) => deps.state.apply(u)).length })),
  'PUT /_sim/books': (deps, body) =>
    unwrap(validateBooks(body, ticks(deps)), (books) => ({ applied: books.map((b) => deps.state.applyBook(b)).length })),
  'GET /_sim/books': (deps, _body, query) =>
    unwrap(validateBookQuery(query, known(deps)), ({ exchange, market, ticker }) => {
      const quote = deps.state.get(exchange, market, ticker);
      const book = quote ? deps.state.book(quote) : undefined;
      return { exchange, market, ticker, updateId: book?.id ?? null, bids: book?.bids ?? [], asks: book?.asks ?? [] };
    }),
  'GET /_sim/depth-subscriptions': (deps) => ({ status: 200, body: deps.hub.depthSubscriptions() }),
  'POST /_sim/drop': (deps, body) =>
    unwrap(validateDrop(body), ({ exchange }) => ({ dropped: deps.hub.drop(exchange) })),
  'POST /_sim/pause': (deps, body) =>
    unwrap(validatePause(body, known(deps)), ({ filter, paused }) => ({ markets: deps.state.setPaused(filter, paused), paused })),
  'POST /_sim/silence': (deps, body) =>
    unwrap(validateFault(body, 'silent'), ({ exchange, value }) => {
      deps.hub.setFault('silent', value, exchange);
      return { exchange: exchange ?? null, silent: value };
    }),
  'POST /_sim/stall': (deps, body) =>
    unwrap(validateFault(body, 'stalled'), ({ exchange, value }) => {
      deps.hub.setFault('stalled', value, exchange);
      return { exchange: exchange ?? null, stalled: value };
    }),
  'POST /_sim/walk': (deps, body) =>
    unwrap(validateWalk(body, known(deps)), ({ enabled, intervalMs, hold }) => {
      if (hold) deps.walk.hold(hold);
      if (enabled) deps.walk.start(intervalMs ?? deps.defaultWalkIntervalMs);
      else deps.walk.stop();
      return { enabled, intervalMs: enabled ? deps.walk.intervalMs : null, hold: deps.walk.holding };
    }),
  'POST /_sim/load': (deps, body) =>
    unwrap(validateLoad(body), (options) => {
      deps.load.start(options);
      return { rate: deps.load.rate, sent: deps.load.sent, framesSent: deps.hub.framesSent };
    }),
  'GET /_sim/load': (deps) => ({ status: 200, body: { rate: deps.load.rate, sent: deps.load.sent, framesSent: deps.hub.framesSent } }),
  'PUT /_sim/funding': (deps, body) =>
    unwrap(validateFunding(body, known(deps)), (updates) => ({ applied: updates.map((u) => deps.state.funding.apply(u)).length })),
  'GET /_sim/funding': (deps) => ({ status: 200, body: fundingState(deps) }),
  'POST /_sim/outage': (deps, body) =>
    unwrap(validateFault(body, 'down'), ({ exchange, value }) => {
      for (const name of exchange ? [exchange] : EXCHANGE_NAMES) {
        if (value) deps.restDown.add(name);
        else deps.restDown.delete(name);
      }
      return { exchange: exchange ?? null, down: value };
    }),
  'PUT /_sim/networks': (deps, body) =>
    unwrap(validateNetworks(body, knownBases(deps)), (updates) => ({ applied: updates.map((u) => deps.state.networks.apply(u)).length })),
  'GET /_sim/networks': (deps) => ({ status: 200, body: deps.state.networks.list() }),
  'GET /_sim/strict': (deps) => ({ status: 200, body: deps.hub.strict.settings }),
  'PUT /_sim/strict': (deps, body) =>
    unwrap(validateStrict(body), (changes) => (deps.hub.strict.settings = { ...deps.hub.strict.settings, ...changes })),
  'GET /_sim/violations': (deps) => ({ status: 200, body: deps.hub.strict.report() }),
  'DELETE /_sim/violations': (deps) => {
    deps.hub.strict.resetViolations();
    return { status: 200, body: deps.hub.strict.report() };
  },
  'POST /_sim/rest-limit': (deps, body) =>
    unwrap(validateRestLimit(body), ({ exchange }) => {
      deps.hub.strict.forcedRestLimit.add(exchange);
      return { exchange, nextCallLimited: true };
    }),
  'POST /_sim/upgrade': (deps, body) =>
    unwrap(validateUpgrade(body, ANNOUNCE_UPGRADES), ({ exchange, noticeMs }) => {
      const closesInMs = noticeMs ?? deps.hub.strict.scaled(simVenueOf(exchange).upgrade?.noticeMs ?? 0);
      return { exchange, notified: deps.hub.announceUpgrade(exchange, closesInMs), closesInMs };
    }),
  'GET /_sim/rest-calls': (deps) => ({ status: 200, body: deps.hub.strict.restCallTimes() }),
  'POST /_sim/maintenance': (deps, body) =>
    unwrap(validateMaintenance(body), ({ exchange, value }) => {
      let closed = 0;
      for (const name of exchange ? [exchange] : EXCHANGE_NAMES) {
        if (value) {
          deps.hub.strict.maintenance.add(name);
          closed += deps.hub.closeForMaintenance(name);
        } else {
          deps.hub.strict.maintenance.delete(name);
        }
      }
      return { exchange: exchange ?? null, maintenance: value, closed };
    }),
  'POST /_sim/delist': (deps, body) =>
    unwrap(validateDelist(body, known(deps)), ({ exchange, ticker, market, delisted }) => ({
      exchange, ticker, market: market ?? null, delisted, changed: deps.state.setDelisted(exchange, ticker, delisted, market),
    })),
  'POST /_sim/halt': (deps, body) =>
    unwrap(validateHalt(body, known(deps)), ({ exchange, ticker, market, halted }) => ({
      exchange, ticker, market: market ?? null, halted, changed: deps.state.setStatus(exchange, ticker, halted ? 'halted' : 'trading', market),
    })),
  'POST /_sim/restore': (deps, body) =>
    unwrap(validateRestore(body, known(deps)), ({ exchange, ticker, market }) => ({
      exchange, ticker, market: market ?? null, changed: deps.state.setStatus(exchange, ticker, 'trading', market),
    })),
};

/** Answers one control request; `body` is the parsed JSON body (undefined when empty). */
export function handleControl(deps: ControlDeps, method: string, path: string, body: unknown, query = new URLSearchParams()): ControlReply {
  const handler = ROUTES[`${method} ${path}`];
  if (handler) return handler(deps, body, query);
  const pathKnown = Object.keys(ROUTES).some((route) => route.endsWith(` ${path}`));
  return pathKnown ? errorReply(405, `${method} is not allowed on ${path}`) : errorReply(404, `Cannot ${method} ${path}`);
}
