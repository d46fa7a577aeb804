import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { APP_CONFIG, type AppConfig } from './app-config.js';
import { declaredVariables } from './env-doc.js';
import { EnvDto } from './env.dto.js';
import { toMarketDataConfig } from './market-data-config.js';
import { defaultKeyFile, parseSecretsKey, parseSecretsKeyList } from './secrets-config.js';
import { parseTrustProxy } from './trust-proxy.js';

export class InvalidEnvironmentError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment: ${problems.join('; ')}`);
    this.name = 'InvalidEnvironmentError';
  }
}

/** Every variable EnvDto declares (from its validation metadata, so optional ones count too). */
export function envVariableNames(): string[] {
  return declaredVariables(EnvDto);
}

/** Validates the raw environment; throws naming every bad variable and its rule. */
export function validateEnv(raw: Record<string, string | undefined>): EnvDto {
  const known = envVariableNames();
  const defined = Object.fromEntries(
    Object.entries(raw).filter(([key, value]) => value !== undefined && value !== '' && known.includes(key)),
  );
  const env = plainToInstance(EnvDto, defined);
  const errors = validateSync(env, { whitelist: true, stopAtFirstError: true });
  if (errors.length > 0) {
    throw new InvalidEnvironmentError(errors.flatMap((e) => Object.values(e.constraints ?? {})));
  }
  // The halves of a split deployment meet only through Redis.
  if (env.ROLE !== 'all' && !env.REDIS_URL) {
    throw new InvalidEnvironmentError([`REDIS_URL is required when ROLE is ${env.ROLE}`]);
  }
  // rules: outbound-targets. The Telegram API base is an alert target like any other.
  if (!allowsPrivateTargets(env) && !env.TELEGRAM_API_URL.startsWith('https://')) {
    throw new InvalidEnvironmentError([TELEGRAM_HTTPS_MESSAGE]);
  }
  return env;
}

export function toAppConfig(env: EnvDto): AppConfig {
  return {
    port: env.PORT,
    host: env.HOST,
    allowOpenAccess: env.ALLOW_OPEN_ACCESS === '1' || env.ALLOW_OPEN_ACCESS === 'true',
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT,
    corsOrigins: env.CORS_ORIGINS === '*' ? '*' : env.CORS_ORIGINS.split(','),
    trustProxy: parseTrustProxy(env.TRUST_PROXY) ?? false,
    database: env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL, connectWaitMs: env.DATABASE_CONNECT_WAIT_MS }
      : { kind: 'pglite', path: env.DB_PATH },
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    bodyLimitBytes: 1024 * 1024,
    headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS,
    realtime: {
      minProfitPercent: env.ARBITRAGE_MIN_PROFIT_PERCENT,
      debounceMs: env.ARBITRAGE_DEBOUNCE_MS,
      pricesIntervalMs: env.PRICES_INTERVAL_MS,
      netReferenceUsdt: env.NET_REFERENCE_USDT,
    },
    sse: {
      maxPerIp: env.SSE_MAX_PER_IP,
      maxBufferBytes: env.SSE_MAX_BUFFER_BYTES,
      heartbeatMs: env.SSE_HEARTBEAT_MS,
      stallTimeoutMs: env.SSE_STALL_TIMEOUT_MS,
    },
    marketData: toMarketDataConfig(env),
    arbitrageRateLimit: { limit: env.ARBITRAGE_RATE_LIMIT, ttlMs: env.ARBITRAGE_RATE_TTL_MS },
    history: {
      // With the recorder off, stats and backtests still read imported history at the `history-import` rule spacing.
      intervalMs: env.HISTORY_INTERVAL_MS || DEFAULT_HISTORY_INTERVAL_MS,
      recorderEnabled: env.HISTORY_INTERVAL_MS > 0,
      minSpreadPercent: env.HISTORY_MIN_SPREAD_PERCENT,
      retentionDays: env.HISTORY_RETENTION_DAYS,
    },
    calculator: {
      processCacheMs: env.CALCULATOR_PROCESS_CACHE_MS,
      streamCacheMs: env.CALCULATOR_STREAM_CACHE_MS,
      marketDataMaxAgeMs: env.CALCULATOR_MARKET_DATA_MAX_AGE_MS,
    },
    lookers: { streamIntervalMs: env.LOOKER_STREAM_INTERVAL_MS },
    funding: { refreshMs: env.FUNDING_REFRESH_MS, retentionDays: env.FUNDING_RETENTION_DAYS },
    crossingCounts: { dailyJob: env.CROSSING_JOB_ENABLED === '1' || env.CROSSING_JOB_ENABLED === 'true' },
    scaleOut: {
      role: env.ROLE,
      redis: env.REDIS_URL ? { url: env.REDIS_URL, keyPrefix: env.REDIS_KEY_PREFIX } : null,
    },
    alerts: {
      telegramApiUrl: env.TELEGRAM_API_URL.replace(/\/+$/, ''),
      sendIntervalMs: env.ALERT_SEND_INTERVAL_MS,
      retryBaseMs: env.ALERT_RETRY_BASE_MS,
      allowPrivateTargets: allowsPrivateTargets(env),
    },
    secrets: {
      key: env.SECRETS_KEY ? parseSecretsKey('SECRETS_KEY', env.SECRETS_KEY) : null,
      previous: env.SECRETS_KEY_PREVIOUS ? parseSecretsKeyList('SECRETS_KEY_PREVIOUS', env.SECRETS_KEY_PREVIOUS) : [],
      keyFile: env.SECRETS_KEY_FILE ?? defaultKeyFile(env.DATABASE_URL ? null : env.DB_PATH),
    },
    auth: {
      mode: env.AUTH_MODE,
      publicMarket: env.AUTH_PUBLIC_MARKET === '1' || env.AUTH_PUBLIC_MARKET === 'true',
      failedPerMinute: env.AUTH_FAILED_PER_MINUTE,
    },
  };
}

export const TELEGRAM_HTTPS_MESSAGE = 'TELEGRAM_API_URL must be an https URL (http only with ALERT_TARGETS_ALLOW_PRIVATE=1)';

function allowsPrivateTargets(env: EnvDto): boolean {
  return env.ALERT_TARGETS_ALLOW_PRIVATE === '1' || env.ALERT_TARGETS_ALLOW_PRIVATE === 'true';
}

/** The one place that reads `process.env`. Overrides let tests configure an app in-process. */
export function loadConfig(overrides: Record<string, string | undefined> = {}): AppConfig {
  return toAppConfig(validateEnv({ ...process.env, ...overrides }));
}

/** The `recorders` rule: the opportunity-history spacing when HISTORY_INTERVAL_MS does not give one. */
const DEFAULT_HISTORY_INTERVAL_MS = 10_000;

export { APP_CONFIG };
