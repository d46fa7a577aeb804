import type { AlertsConfig } from './alerts-config.js';
import type { RealtimeConfig } from './realtime-config.js';
import type { SecretsConfig } from './secrets-config.js';
import type { SseConfig } from './sse-config.js';
import type { MarketDataConfig } from './market-data-config.js';

/** The validated, typed configuration every module receives through `APP_CONFIG`. */
export interface AppConfig {
  port: number;
  /** The interface to listen on; 127.0.0.1 unless HOST says otherwise. */
  host: string;
  /** ALLOW_OPEN_ACCESS: the operator's opt-in to a non-loopback HOST with AUTH_MODE=none. */
  allowOpenAccess: boolean;
  logLevel: LogLevel;
  /** `auto`: pretty when stdout is a terminal, JSON lines otherwise. */
  logFormat: LogFormat;
  corsOrigins: '*' | string[];
  /**
   * Express's 'trust proxy': false (the socket address is the client), a hop count (the client is
   * that many addresses from the right of X-Forwarded-For), or the addresses/CIDRs of the proxies.
   */
  trustProxy: false | number | string[];
  database: DatabaseConfig;
  /** SIGTERM/SIGINT: how long in-flight work may take to finish before the process exits anyway. */
  shutdownTimeoutMs: number;
  bodyLimitBytes: number;
  /** How long a client may take to send a request head (Node's headersTimeout). */
  headersTimeoutMs: number;
  sse: SseConfig;
  realtime: RealtimeConfig;
  marketData: MarketDataConfig;
  /** The `rate-limits` rule: one counter per client IP shared by every route of the arbitrage group. */
  arbitrageRateLimit: { limit: number; ttlMs: number };
  /**
   * The `recorders` rule/the `backtest` rule: the opportunity-history sampling interval (recorder period, stats minutes, backtest
   * gap rule), whether the recorder runs, its spread floor, and how many days rows are kept.
   */
  history: { intervalMs: number; recorderEnabled: boolean; minSpreadPercent: number; retentionDays: number };
  /** The `calculator` rule/8, the `calculator-market-data` rule: calculator market-data cache windows and the "market data" age limit. */
  calculator: { processCacheMs: number; streamCacheMs: number; marketDataMaxAgeMs: number };
  /** The `lookers` rule: the looker stream cadence (1 s); smaller only to keep tests fast. */
  lookers: { streamIntervalMs: number };
  /** The `funding` rule: funding collection period; 0 switches the collector off. */
  funding: { refreshMs: number; retentionDays: number };
  /** The `crossing-counts` rule, the `crossing-counts` rule: the crossing-count job's daily 00:10 São Paulo run can be switched off. */
  crossingCounts: { dailyJob: boolean };
  /**
   * Which half of the service this process runs, and the Redis that joins the halves.
   * `all` (default) runs both in one process and needs no Redis; `ingest` and `api` require it.
   */
  scaleOut: ScaleOutConfig;
  /** Alert delivery: the Telegram Bot API base URL, the outbox poll interval, the first retry's wait. */
  alerts: AlertsConfig;
  /**
   * Who may call what. `none` (default): no credential, as the contract has always been. `token`:
   * user-scoped routes need `Authorization: Bearer <token>` and act only on the token's e-mail.
   */
  auth: AuthConfig;
  /** The master key that seals stored secrets (rules: sealed-secrets). */
  secrets: SecretsConfig;
}

export const AUTH_MODES = ['none', 'token'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

export interface AuthConfig {
  mode: AuthMode;
  /** Market-wide routes (prices, opportunities, funding, history) readable without a token. */
  publicMarket: boolean;
  /** Failed authentications one client IP may make per minute before it is answered 429. */
  failedPerMinute: number;
}

export const ROLES = ['all', 'ingest', 'api'] as const;
export type Role = (typeof ROLES)[number];

export interface ScaleOutConfig {
  role: Role;
  /** null: no Redis (role `all` only); every key the service writes starts with `keyPrefix`. */
  redis: { url: string; keyPrefix: string } | null;
}

export type DatabaseConfig =
  | { kind: 'postgres'; url: string; /** How long the start waits for the server to answer (DATABASE_CONNECT_WAIT_MS); absent: no wait. */ connectWaitMs?: number }
  | { kind: 'pglite'; path: string };

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export const APP_CONFIG = Symbol('APP_CONFIG');
