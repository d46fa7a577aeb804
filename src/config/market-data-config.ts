import { availableParallelism } from 'node:os';
import { ValidateBy, type ValidationOptions } from 'class-validator';
import { DEFAULT_EXCHANGES, EXCHANGE_NAMES, type ExchangeName, parseExchangeName } from '../market-model/exchanges.js';
import { toCanonicalTicker } from '../market-model/ticker.js';
import { type ExchangeUrlOverrides, toExchangeUrls } from './exchange-urls.js';
import { type DenyEntry, parseDenylist } from '../market-model/symbol-denylist.js';
import { type CredentialsEnv, type ExchangeCredentialsConfig, toCredentialsConfig } from './exchange-credentials.js';

/** Market-data settings (rules: quotes, recorders, operating), built from the validated environment. */
export interface MarketDataConfig {
  /** ENABLED_WEBSOCKET=1: start the feeds; otherwise no connections at all. */
  websocketEnabled: boolean;
  exchanges: ExchangeName[];
  /** 'auto' picks the universe from markets and volumes; else canonical `BASE-QUOTE` tickers. */
  symbols: 'auto' | string[];
  /** SYMBOL_DENYLIST: tickers (or exchange:ticker) left out by hand (rules: tickers). */
  denylist: DenyEntry[];
  maxSymbols: number;
  simulatorUrl: string | null;
  /** ccxt base URLs replaced per venue (EXCHANGE_URLS over the service's defaults), by `urls.api` path. */
  exchangeUrls: ExchangeUrlOverrides;
  /** Read-only API keys per exchange, for the signed currency/network calls only; never logged. */
  credentials: ExchangeCredentialsConfig;
  /** A connection without data for this long is closed and replaced. */
  silenceTimeoutMs: number;
  reconnectBaseMs: number;
  reconnectMaxMs: number;
  volumeRefreshMs: number;
  marketsRefreshMs: number;
  /** A venue's spot mid this far (percent) from the others' for `nameCollisionMinMs` names another coin. */
  nameCollisionSpreadPercent: number;
  nameCollisionMinMs: number;
  /** 0 switches the sample recorder off. */
  sampleIntervalMs: number;
  sampleRetentionDays: number;
  /** Worker threads running the exchanges (INGEST_WORKERS; default one per spare core, at least one). */
  ingestWorkers: number;
  /** Old-generation limit of each ingest worker in MB (INGEST_WORKER_HEAP_MB). */
  ingestWorkerHeapMb: number;
  /** Order books of open routes' two legs, kept by the ingest workers. */
  depth: DepthConfig;
}

export interface DepthConfig {
  /** DEPTH_ENABLED: keep books for open routes at all. */
  enabled: boolean;
  /** DEPTH_MAX_BOOKS: books held at once, all exchanges together. */
  maxBooks: number;
  /** DEPTH_GRACE_MS: a closed route's books are kept this long, in case it reopens. */
  graceMs: number;
}

export interface MarketDataEnv extends CredentialsEnv {
  ENABLED_WEBSOCKET: string;
  EXCHANGES?: string;
  EXCHANGE_URLS?: string;
  SYMBOLS: string;
  SYMBOL_DENYLIST: string;
  MAX_SYMBOLS: number;
  MARKET_SIMULATOR_URL?: string;
  MARKET_SILENCE_TIMEOUT_MS: number;
  MARKET_RECONNECT_BASE_MS: number;
  MARKET_RECONNECT_MAX_MS: number;
  MARKET_VOLUME_REFRESH_MS: number;
  MARKET_MARKETS_REFRESH_MS: number;
  NAME_COLLISION_SPREAD_PERCENT: number;
  NAME_COLLISION_MIN_MS: number;
  SAMPLE_INTERVAL_MS: number;
  SAMPLE_RETENTION_DAYS: number;
  INGEST_WORKERS?: number;
  INGEST_WORKER_HEAP_MB: number;
  DEPTH_ENABLED: string;
  DEPTH_MAX_BOOKS: number;
  DEPTH_GRACE_MS: number;
}

const splitList = (value: string): string[] =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);

export function isExchangeList(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  if (value.trim().toLowerCase() === ALL_EXCHANGES) return true;
  const names = splitList(value);
  return names.length > 0 && names.every((name) => parseExchangeName(name) !== null);
}

export function isSymbolList(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  if (value.trim().toLowerCase() === 'auto') return true;
  const items = splitList(value);
  return items.length > 0 && items.every((item) => toCanonicalTicker(item) !== null);
}

export const IsExchangeList = (options?: ValidationOptions): PropertyDecorator =>
  ValidateBy({ name: 'isExchangeList', validator: { validate: isExchangeList } }, options);

export const IsSymbolList = (options?: ValidationOptions): PropertyDecorator =>
  ValidateBy({ name: 'isSymbolList', validator: { validate: isSymbolList } }, options);

/** EXCHANGES's word for every supported venue. */
const ALL_EXCHANGES = 'all';

/** Unset: the default venues; `all`: every venue of the registry; else the venues named, each once. */
function exchangesOf(raw: string | undefined): ExchangeName[] {
  if (!raw) return [...DEFAULT_EXCHANGES];
  if (raw.trim().toLowerCase() === ALL_EXCHANGES) return [...EXCHANGE_NAMES];
  return [...new Set(splitList(raw).map((name) => parseExchangeName(name) as ExchangeName))];
}

export function toMarketDataConfig(env: MarketDataEnv): MarketDataConfig {
  const exchanges = exchangesOf(env.EXCHANGES);
  const symbols =
    env.SYMBOLS.trim().toLowerCase() === 'auto'
      ? 'auto'
      : [...new Set(splitList(env.SYMBOLS).map((item) => toCanonicalTicker(item) as string))];
  return {
    websocketEnabled: env.ENABLED_WEBSOCKET === '1' || env.ENABLED_WEBSOCKET === 'true',
    exchanges,
    symbols,
    denylist: (() => { const parsed = parseDenylist(env.SYMBOL_DENYLIST); return parsed.ok ? parsed.entries : []; })(),
    maxSymbols: env.MAX_SYMBOLS,
    simulatorUrl: env.MARKET_SIMULATOR_URL ?? null,
    exchangeUrls: toExchangeUrls(env.EXCHANGE_URLS),
    credentials: toCredentialsConfig(env),
    silenceTimeoutMs: env.MARKET_SILENCE_TIMEOUT_MS,
    reconnectBaseMs: env.MARKET_RECONNECT_BASE_MS,
    reconnectMaxMs: env.MARKET_RECONNECT_MAX_MS,
    volumeRefreshMs: env.MARKET_VOLUME_REFRESH_MS,
    marketsRefreshMs: env.MARKET_MARKETS_REFRESH_MS,
    nameCollisionSpreadPercent: env.NAME_COLLISION_SPREAD_PERCENT,
    nameCollisionMinMs: env.NAME_COLLISION_MIN_MS,
    sampleIntervalMs: env.SAMPLE_INTERVAL_MS,
    sampleRetentionDays: env.SAMPLE_RETENTION_DAYS,
    ingestWorkers: env.INGEST_WORKERS ?? Math.max(1, availableParallelism() - 1),
    ingestWorkerHeapMb: env.INGEST_WORKER_HEAP_MB,
    depth: {
      enabled: env.DEPTH_ENABLED === '1' || env.DEPTH_ENABLED === 'true',
      maxBooks: env.DEPTH_MAX_BOOKS,
      graceMs: env.DEPTH_GRACE_MS,
    },
  };
}
