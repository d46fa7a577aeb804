import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsNumber, IsOptional, IsString, Matches, Max, Min, ValidateBy } from 'class-validator';
import { AUTH_MODES, LOG_FORMATS, LOG_LEVELS, ROLES, type AuthMode, type LogFormat, type LogLevel, type Role } from './app-config.js';
import { parseTrustProxy, TRUST_PROXY_RULE } from './trust-proxy.js';
import { IsCredentialOf } from './exchange-credentials.js';
import { IsExchangeList, IsSymbolList } from './market-data-config.js';
import { IsExchangeUrls } from './exchange-urls.js';
import { parseSecretsKey, parseSecretsKeyList } from './secrets-config.js';
import { parseDenylist } from '../market-model/symbol-denylist.js';
import { EXCHANGE_LIST } from '../market-model/exchanges.js';

const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;

const toNumber = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;

/** True when `parse` does not throw (a key's message is built by its own parser). */
function parses(parse: () => unknown): boolean {
  try {
    parse();
    return true;
  } catch {
    return false;
  }
}

/**
 * Every environment variable the service reads, with its rule. The messages name the variable
 * so a bad deployment fails at start with a sentence an operator can act on.
 * Keep in step with .env.example and the README's configuration table.
 */
export class EnvDto {
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'PORT must be an integer from 1 to 65535' })
  @Min(1, { message: 'PORT must be an integer from 1 to 65535' })
  @Max(65535, { message: 'PORT must be an integer from 1 to 65535' })
  PORT: number = 3000;

  // Loopback unless told otherwise: with AUTH_MODE=none any other address needs ALLOW_OPEN_ACCESS=1.
  @IsOptional()
  @IsString()
  HOST: string = '127.0.0.1';

  @IsOptional()
  @IsIn(['0', '1', 'true', 'false'], { message: 'ALLOW_OPEN_ACCESS must be 0, 1, true or false' })
  ALLOW_OPEN_ACCESS: string = '0';

  @IsOptional()
  @IsIn(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: LogLevel = 'info';

  @IsOptional()
  @IsIn(LOG_FORMATS, { message: `LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')}` })
  LOG_FORMAT: LogFormat = 'auto';

  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'DATABASE_CONNECT_WAIT_MS must be an integer from 0 to 600000' })
  @Min(0, { message: 'DATABASE_CONNECT_WAIT_MS must be an integer from 0 to 600000' })
  @Max(600_000, { message: 'DATABASE_CONNECT_WAIT_MS must be an integer from 0 to 600000' })
  DATABASE_CONNECT_WAIT_MS: number = 15_000;

  @IsOptional()
  @IsString()
  @Matches(/\S/, { message: 'DB_PATH must be a folder path or :memory:' })
  DB_PATH: string = './data/pglite';

  @IsOptional()
  @Matches(/^(\*|[^,\s]+(,[^,\s]+)*)$/, {
    message: 'CORS_ORIGINS must be * or a comma-separated list of origins',
  })
  CORS_ORIGINS: string = '*';

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'SHUTDOWN_TIMEOUT_MS must be an integer from 100 to 600000' })
  @Min(100, { message: 'SHUTDOWN_TIMEOUT_MS must be an integer from 100 to 600000' })
  @Max(600_000, { message: 'SHUTDOWN_TIMEOUT_MS must be an integer from 100 to 600000' })
  SHUTDOWN_TIMEOUT_MS: number = 10_000;

  @IsOptional()
  @ValidateBy({ name: 'trustProxy', validator: { validate: (v: unknown) => typeof v === 'string' && parseTrustProxy(v) !== undefined } }, { message: TRUST_PROXY_RULE })
  TRUST_PROXY: string = '0';

  // --- Sealed secrets (rules: sealed-secrets) ---
  @IsOptional()
  @ValidateBy({ name: 'secretsKey', validator: { validate: (v: unknown) => typeof v === 'string' && parses(() => parseSecretsKey('SECRETS_KEY', v)) } }, {
    message: 'SECRETS_KEY must be 32 bytes written as 64 hex digits or as base64 (openssl rand -hex 32)',
  })
  SECRETS_KEY?: string;

  @IsOptional()
  @ValidateBy(
    { name: 'secretsKeyPrevious', validator: { validate: (v: unknown) => typeof v === 'string' && parses(() => parseSecretsKeyList('SECRETS_KEY_PREVIOUS', v)) } },
    { message: 'SECRETS_KEY_PREVIOUS must be a comma-separated list of keys, each 32 bytes as 64 hex digits or as base64' },
  )
  SECRETS_KEY_PREVIOUS?: string;

  @IsOptional()
  @Matches(/\S/, { message: 'SECRETS_KEY_FILE must be a file path' })
  SECRETS_KEY_FILE?: string;

  // --- Authentication (optional bearer tokens) ---
  @IsOptional()
  @IsIn(AUTH_MODES, { message: `AUTH_MODE must be one of ${AUTH_MODES.join(', ')}` })
  AUTH_MODE: AuthMode = 'none';

  @IsOptional()
  @IsIn(['0', '1', 'true', 'false'], { message: 'AUTH_PUBLIC_MARKET must be 0, 1, true or false' })
  AUTH_PUBLIC_MARKET: string = '1';

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'AUTH_FAILED_PER_MINUTE must be an integer from 1 to 10000' })
  @Min(1, { message: 'AUTH_FAILED_PER_MINUTE must be an integer from 1 to 10000' })
  @Max(10_000, { message: 'AUTH_FAILED_PER_MINUTE must be an integer from 1 to 10000' })
  AUTH_FAILED_PER_MINUTE: number = 20;

  // --- Market data (rules: quotes, recorders, operating) ---
  @IsOptional()
  @IsIn(['0', '1', 'true', 'false'], { message: 'ENABLED_WEBSOCKET must be 0, 1, true or false' })
  ENABLED_WEBSOCKET: string = '0';

  @IsOptional()
  @IsExchangeList({ message: `EXCHANGES must be all or a comma list of ${EXCHANGE_LIST}` })
  EXCHANGES?: string = undefined;

  @IsOptional()
  @IsExchangeUrls()
  EXCHANGE_URLS?: string = undefined;

  @IsOptional()
  @IsSymbolList({ message: 'SYMBOLS must be auto or a comma list of tickers such as BTC-USDT or BTCUSDT' })
  SYMBOLS: string = 'auto';

  @IsOptional()
  @ValidateBy(
    { name: 'symbolDenylist', validator: { validate: (v: unknown) => typeof v === 'string' && parseDenylist(v).ok } },
    { message: ({ value }) => { const parsed = parseDenylist(String(value)); return parsed.ok ? '' : parsed.message; } },
  )
  SYMBOL_DENYLIST: string = '';

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'MAX_SYMBOLS must be an integer from 1 to 5000' })
  @Min(1, { message: 'MAX_SYMBOLS must be an integer from 1 to 5000' })
  @Max(5000, { message: 'MAX_SYMBOLS must be an integer from 1 to 5000' })
  MAX_SYMBOLS: number = 300;

  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'MARKET_SIMULATOR_URL must be an http:// URL' })
  MARKET_SIMULATOR_URL?: string = undefined;

  // Read-only API keys for the signed currency calls; each exchange's set goes together.
  @IsCredentialOf('binance')
  BINANCE_API_KEY?: string = undefined;

  @IsCredentialOf('binance')
  BINANCE_API_SECRET?: string = undefined;

  @IsCredentialOf('bybit')
  BYBIT_API_KEY?: string = undefined;

  @IsCredentialOf('bybit')
  BYBIT_API_SECRET?: string = undefined;

  @IsCredentialOf('okx')
  OKX_API_KEY?: string = undefined;

  @IsCredentialOf('okx')
  OKX_API_SECRET?: string = undefined;

  @IsCredentialOf('okx')
  OKX_API_PASSWORD?: string = undefined;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'MARKET_SILENCE_TIMEOUT_MS must be an integer of at least 100' })
  @Min(100, { message: 'MARKET_SILENCE_TIMEOUT_MS must be an integer of at least 100' })
  MARKET_SILENCE_TIMEOUT_MS: number = 30_000;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'MARKET_RECONNECT_BASE_MS must be an integer of at least 10' })
  @Min(10, { message: 'MARKET_RECONNECT_BASE_MS must be an integer of at least 10' })
  MARKET_RECONNECT_BASE_MS: number = 1000;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'MARKET_RECONNECT_MAX_MS must be an integer of at least 10' })
  @Min(10, { message: 'MARKET_RECONNECT_MAX_MS must be an integer of at least 10' })
  MARKET_RECONNECT_MAX_MS: number = 30_000;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'MARKET_VOLUME_REFRESH_MS must be an integer of at least 1000' })
  @Min(1000, { message: 'MARKET_VOLUME_REFRESH_MS must be an integer of at least 1000' })
  MARKET_VOLUME_REFRESH_MS: number = 60_000;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'MARKET_MARKETS_REFRESH_MS must be an integer of at least 1000' })
  @Min(1000, { message: 'MARKET_MARKETS_REFRESH_MS must be an integer of at least 1000' })
  MARKET_MARKETS_REFRESH_MS: number = 3_600_000;

  @IsOptional()
  @Transform(toNumber)
  @IsNumber({}, { message: 'NAME_COLLISION_SPREAD_PERCENT must be a number from 1 to 1000' })
  @Min(1, { message: 'NAME_COLLISION_SPREAD_PERCENT must be a number from 1 to 1000' })
  @Max(1000, { message: 'NAME_COLLISION_SPREAD_PERCENT must be a number from 1 to 1000' })
  NAME_COLLISION_SPREAD_PERCENT: number = 20;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'NAME_COLLISION_MIN_MS must be an integer of at least 1000' })
  @Min(1000, { message: 'NAME_COLLISION_MIN_MS must be an integer of at least 1000' })
  NAME_COLLISION_MIN_MS: number = 600_000;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'INGEST_WORKERS must be an integer from 1 to 5' })
  @Min(1, { message: 'INGEST_WORKERS must be an integer from 1 to 5' })
  @Max(5, { message: 'INGEST_WORKERS must be an integer from 1 to 5' })
  INGEST_WORKERS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'INGEST_WORKER_HEAP_MB must be an integer from 128 to 16384' })
  @Min(128, { message: 'INGEST_WORKER_HEAP_MB must be an integer from 128 to 16384' })
  @Max(16384, { message: 'INGEST_WORKER_HEAP_MB must be an integer from 128 to 16384' })
  INGEST_WORKER_HEAP_MB: number = 224;

  // --- Order-book depth of open routes ---
  @IsOptional()
  @IsIn(['0', '1', 'true', 'false'], { message: 'DEPTH_ENABLED must be 0, 1, true or false' })
  DEPTH_ENABLED: string = '1';

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'DEPTH_MAX_BOOKS must be an integer from 2 to 2000' })
  @Min(2, { message: 'DEPTH_MAX_BOOKS must be an integer from 2 to 2000' })
  @Max(2000, { message: 'DEPTH_MAX_BOOKS must be an integer from 2 to 2000' })
  DEPTH_MAX_BOOKS: number = 400;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'DEPTH_GRACE_MS must be an integer from 0 to 3600000' })
  @Min(0, { message: 'DEPTH_GRACE_MS must be an integer from 0 to 3600000' })
  @Max(3_600_000, { message: 'DEPTH_GRACE_MS must be an integer from 0 to 3600000' })
  DEPTH_GRACE_MS: number = 60_000;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'SAMPLE_INTERVAL_MS must be 0 (off) or an integer of at least 100' })
  @Min(0, { message: 'SAMPLE_INTERVAL_MS must be 0 (off) or an integer of at least 100' })
  SAMPLE_INTERVAL_MS: number = 5000;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'SAMPLE_RETENTION_DAYS must be an integer from 1 to 3650' })
  @Min(1, { message: 'SAMPLE_RETENTION_DAYS must be an integer from 1 to 3650' })
  @Max(3650, { message: 'SAMPLE_RETENTION_DAYS must be an integer from 1 to 3650' })
  SAMPLE_RETENTION_DAYS: number = 14;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'SSE_MAX_PER_IP must be an integer of at least 1' })
  @Min(1, { message: 'SSE_MAX_PER_IP must be an integer of at least 1' })
  SSE_MAX_PER_IP: number = 50;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'SSE_MAX_BUFFER_BYTES must be an integer of at least 65536' })
  @Min(65536, { message: 'SSE_MAX_BUFFER_BYTES must be an integer of at least 65536' })
  SSE_MAX_BUFFER_BYTES: number = 8 * 1024 * 1024;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'SSE_HEARTBEAT_MS must be an integer of at least 100' })
  @Min(100, { message: 'SSE_HEARTBEAT_MS must be an integer of at least 100' })
  SSE_HEARTBEAT_MS: number = 15_000;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'SSE_STALL_TIMEOUT_MS must be an integer of at least 100' })
  @Min(100, { message: 'SSE_STALL_TIMEOUT_MS must be an integer of at least 100' })
  SSE_STALL_TIMEOUT_MS: number = 30_000;

  /** Slowloris bound: a connection whose request head is not complete this long after it began gets a 408 and is closed. */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'HTTP_HEADERS_TIMEOUT_MS must be an integer from 500 to 120000' })
  @Min(500, { message: 'HTTP_HEADERS_TIMEOUT_MS must be an integer from 500 to 120000' })
  @Max(120_000, { message: 'HTTP_HEADERS_TIMEOUT_MS must be an integer from 500 to 120000' })
  HTTP_HEADERS_TIMEOUT_MS: number = 10_000;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'ARBITRAGE_RATE_LIMIT must be an integer of at least 1' })
  @Min(1, { message: 'ARBITRAGE_RATE_LIMIT must be an integer of at least 1' })
  ARBITRAGE_RATE_LIMIT: number = 30;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'ARBITRAGE_RATE_TTL_MS must be an integer of at least 1000' })
  @Min(1000, { message: 'ARBITRAGE_RATE_TTL_MS must be an integer of at least 1000' })
  ARBITRAGE_RATE_TTL_MS: number = 60_000;

  @IsOptional()
  @Transform(toInt)
  @ValidateBy(
    { name: 'historyInterval', validator: { validate: (v: unknown) => v === 0 || (Number.isInteger(v) && Number(v) >= 1000 && Number(v) <= 3_600_000) } },
    { message: 'HISTORY_INTERVAL_MS must be 0 (recorder off) or an integer from 1000 to 3600000' },
  )
  HISTORY_INTERVAL_MS: number = 10_000;

  @IsOptional()
  @Transform(toNumber)
  @IsNumber({}, { message: 'HISTORY_MIN_SPREAD_PERCENT must be a number from -100 to 100' })
  @Min(-100, { message: 'HISTORY_MIN_SPREAD_PERCENT must be a number from -100 to 100' })
  @Max(100, { message: 'HISTORY_MIN_SPREAD_PERCENT must be a number from -100 to 100' })
  HISTORY_MIN_SPREAD_PERCENT: number = 0;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'HISTORY_RETENTION_DAYS must be an integer from 1 to 3650' })
  @Min(1, { message: 'HISTORY_RETENTION_DAYS must be an integer from 1 to 3650' })
  @Max(3650, { message: 'HISTORY_RETENTION_DAYS must be an integer from 1 to 3650' })
  HISTORY_RETENTION_DAYS: number = 90;

  // --- Calculator (rules: calculator, limits, calculator-market-data) ---
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'CALCULATOR_PROCESS_CACHE_MS must be an integer from 0 to 3600000' })
  @Min(0, { message: 'CALCULATOR_PROCESS_CACHE_MS must be an integer from 0 to 3600000' })
  @Max(3_600_000, { message: 'CALCULATOR_PROCESS_CACHE_MS must be an integer from 0 to 3600000' })
  CALCULATOR_PROCESS_CACHE_MS: number = 55_000;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'CALCULATOR_STREAM_CACHE_MS must be an integer from 0 to 3600000' })
  @Min(0, { message: 'CALCULATOR_STREAM_CACHE_MS must be an integer from 0 to 3600000' })
  @Max(3_600_000, { message: 'CALCULATOR_STREAM_CACHE_MS must be an integer from 0 to 3600000' })
  CALCULATOR_STREAM_CACHE_MS: number = 5000;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'CALCULATOR_MARKET_DATA_MAX_AGE_MS must be an integer from 1000 to 86400000' })
  @Min(1000, { message: 'CALCULATOR_MARKET_DATA_MAX_AGE_MS must be an integer from 1000 to 86400000' })
  @Max(86_400_000, { message: 'CALCULATOR_MARKET_DATA_MAX_AGE_MS must be an integer from 1000 to 86400000' })
  CALCULATOR_MARKET_DATA_MAX_AGE_MS: number = 1_200_000;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'LOOKER_STREAM_INTERVAL_MS must be an integer from 50 to 60000' })
  @Min(50, { message: 'LOOKER_STREAM_INTERVAL_MS must be an integer from 50 to 60000' })
  @Max(60_000, { message: 'LOOKER_STREAM_INTERVAL_MS must be an integer from 50 to 60000' })
  LOOKER_STREAM_INTERVAL_MS: number = 1000;

  @IsOptional()
  @Transform(toNumber)
  @IsNumber({}, { message: 'ARBITRAGE_MIN_PROFIT_PERCENT must be a number from 0 to 100' })
  @Min(0, { message: 'ARBITRAGE_MIN_PROFIT_PERCENT must be a number from 0 to 100' })
  @Max(100, { message: 'ARBITRAGE_MIN_PROFIT_PERCENT must be a number from 0 to 100' })
  ARBITRAGE_MIN_PROFIT_PERCENT: number = 0.1;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'ARBITRAGE_DEBOUNCE_MS must be an integer from 10 to 10000' })
  @Min(10, { message: 'ARBITRAGE_DEBOUNCE_MS must be an integer from 10 to 10000' })
  @Max(10_000, { message: 'ARBITRAGE_DEBOUNCE_MS must be an integer from 10 to 10000' })
  ARBITRAGE_DEBOUNCE_MS: number = 200;

  @IsOptional()
  @Transform(toNumber)
  @IsNumber({}, { message: 'NET_REFERENCE_USDT must be a number from 1 to 10000000' })
  @Min(1, { message: 'NET_REFERENCE_USDT must be a number from 1 to 10000000' })
  @Max(10_000_000, { message: 'NET_REFERENCE_USDT must be a number from 1 to 10000000' })
  NET_REFERENCE_USDT: number = 1000;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'PRICES_INTERVAL_MS must be an integer of at least 50' })
  @Min(50, { message: 'PRICES_INTERVAL_MS must be an integer of at least 50' })
  PRICES_INTERVAL_MS: number = 1000;

  // --- Funding rates (rules: funding) ---
  @IsOptional()
  @Transform(toInt)
  @ValidateBy(
    { name: 'fundingRefresh', validator: { validate: (v: unknown) => v === 0 || (Number.isInteger(v) && Number(v) >= 100 && Number(v) <= 86_400_000) } },
    { message: 'FUNDING_REFRESH_MS must be 0 (off) or an integer from 100 to 86400000' },
  )
  FUNDING_REFRESH_MS: number = 60_000;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'FUNDING_RETENTION_DAYS must be an integer from 30 to 3650' })
  @Min(30, { message: 'FUNDING_RETENTION_DAYS must be an integer from 30 to 3650' })
  @Max(3650, { message: 'FUNDING_RETENTION_DAYS must be an integer from 30 to 3650' })
  FUNDING_RETENTION_DAYS: number = 90;

  // --- Crossing counts (rules: crossing-counts) ---
  @IsOptional()
  @IsIn(['0', '1', 'true', 'false'], { message: 'CROSSING_JOB_ENABLED must be 0, 1, true or false' })
  CROSSING_JOB_ENABLED: string = '1';

  // --- Scale-out ---
  @IsOptional()
  @IsIn(ROLES, { message: `ROLE must be one of ${ROLES.join(', ')}` })
  ROLE: Role = 'all';

  @IsOptional()
  @Matches(/^rediss?:\/\/\S+$/, { message: 'REDIS_URL must be a redis:// URL' })
  REDIS_URL?: string = undefined;

  @IsOptional()
  @Matches(/^[A-Za-z0-9:_.-]{1,64}$/, { message: 'REDIS_KEY_PREFIX must be 1 to 64 letters, digits or :_.-' })
  REDIS_KEY_PREFIX: string = 'arbitrage:';

  // --- Alerts ---
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, { message: 'TELEGRAM_API_URL must be an http or https URL without query' })
  TELEGRAM_API_URL: string = 'https://api.telegram.org';

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'ALERT_SEND_INTERVAL_MS must be an integer from 50 to 60000' })
  @Min(50, { message: 'ALERT_SEND_INTERVAL_MS must be an integer from 50 to 60000' })
  @Max(60_000, { message: 'ALERT_SEND_INTERVAL_MS must be an integer from 50 to 60000' })
  ALERT_SEND_INTERVAL_MS: number = 1000;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'ALERT_RETRY_BASE_MS must be an integer from 10 to 3600000' })
  @Min(10, { message: 'ALERT_RETRY_BASE_MS must be an integer from 10 to 3600000' })
  @Max(3_600_000, { message: 'ALERT_RETRY_BASE_MS must be an integer from 10 to 3600000' })
  ALERT_RETRY_BASE_MS: number = 5000;

  // rules: outbound-targets. Off, an alert may only reach public addresses over https.
  @IsOptional()
  @IsIn(['0', '1', 'true', 'false'], { message: 'ALERT_TARGETS_ALLOW_PRIVATE must be 0, 1, true or false' })
  ALERT_TARGETS_ALLOW_PRIVATE: string = '0';
}
