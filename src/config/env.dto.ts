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
import { EnvDoc } from './env-doc.js';

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
 * Every environment variable the service reads, with its rule and, in its @EnvDoc, what it does:
 * docs/configuration.md is generated from this class (`npm run openapi`). The messages name the
 * variable so a bad deployment fails at start with a sentence an operator can act on; a message
 * "<NAME> must be <rule>" is also the allowed-values column. .env.example lists every variable.
 */
export class EnvDto {
  @EnvDoc({ description: 'HTTP port the service listens on' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'PORT must be an integer from 1 to 65535' })
  @Min(1, { message: 'PORT must be an integer from 1 to 65535' })
  @Max(65535, { message: 'PORT must be an integer from 1 to 65535' })
  PORT: number = 3000;

  // Loopback unless told otherwise: with AUTH_MODE=none any other address needs ALLOW_OPEN_ACCESS=1.
  @EnvDoc({ description: 'interface to bind. Loopback (`127.x`, `::1`, `localhost`) keeps the service on this machine; any other address (`0.0.0.0`, a LAN or VPS address) with `AUTH_MODE=none` stops the start with one line unless `ALLOW_OPEN_ACCESS=1`', allowed: 'an IP address or a host name' })
  @IsOptional()
  @IsString()
  HOST: string = '127.0.0.1';

  @EnvDoc({ description: '`1`/`true`: the explicit opt-in to listen beyond loopback with `AUTH_MODE=none`, so whoever reaches the address reads and changes every user\'s data; the start then logs one warning saying so. Not needed with `AUTH_MODE=token` or on loopback' })
  @IsOptional()
  @IsIn(['0', '1', 'true', 'false'], { message: 'ALLOW_OPEN_ACCESS must be 0, 1, true or false' })
  ALLOW_OPEN_ACCESS: string = '0';

  @EnvDoc({ description: 'how much the service logs; every line written while a request is handled carries its id (`X-Request-Id`)' })
  @IsOptional()
  @IsIn(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: LogLevel = 'info';

  @EnvDoc({ description: '`json` (one object per line), `pretty` (one coloured line per record, `GET /path 200 3.1 ms` per request) or `auto`: pretty when stdout is a terminal, JSON otherwise' })
  @IsOptional()
  @IsIn(LOG_FORMATS, { message: `LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')}` })
  LOG_FORMAT: LogFormat = 'auto';

  @EnvDoc({ description: 'PostgreSQL URL; unset selects the embedded database' })
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  @EnvDoc({ description: 'how long a start waits for the PostgreSQL server of `DATABASE_URL` to answer (tried every half second; 0 to 600000 ms); then it stops with one line naming the host, the port and what happened (connection refused, timed out, host not found). A server that refuses the user stops it at once' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'DATABASE_CONNECT_WAIT_MS must be an integer from 0 to 600000' })
  @Min(0, { message: 'DATABASE_CONNECT_WAIT_MS must be an integer from 0 to 600000' })
  @Max(600_000, { message: 'DATABASE_CONNECT_WAIT_MS must be an integer from 0 to 600000' })
  DATABASE_CONNECT_WAIT_MS: number = 15_000;

  @EnvDoc({ description: 'folder of the embedded database, or `:memory:`' })
  @IsOptional()
  @IsString()
  @Matches(/\S/, { message: 'DB_PATH must be a folder path or :memory:' })
  DB_PATH: string = './data/pglite';

  @IsOptional()
  @Matches(/^(\*|[^,\s]+(,[^,\s]+)*)$/, {
    message: 'CORS_ORIGINS must be * or a comma-separated list of origins',
  })
  @EnvDoc({ description: 'origins allowed by browsers, for REST and the SSE streams: `*` or a comma list' })
  CORS_ORIGINS: string = '*';

  @EnvDoc({ description: 'on SIGTERM or SIGINT the service stops accepting connections, ends the streams and lets in-flight requests and jobs finish for at most this long (ms); then it exits anyway with code 1 and logs that it did. Each write is one transaction, so an interrupted one leaves nothing behind (see [Faults](../README.md#faults))' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'SHUTDOWN_TIMEOUT_MS must be an integer from 100 to 600000' })
  @Min(100, { message: 'SHUTDOWN_TIMEOUT_MS must be an integer from 100 to 600000' })
  @Max(600_000, { message: 'SHUTDOWN_TIMEOUT_MS must be an integer from 100 to 600000' })
  SHUTDOWN_TIMEOUT_MS: number = 10_000;

  @EnvDoc({ description: 'the reverse proxies in front of the service, for the client IP of rate limits and stream caps: `0`/`false` none (socket address); a hop count `1`-`10` (`true` = 1): the client is the address the last of them appended to `X-Forwarded-For`, so one a client writes there itself is never used; or a comma list of proxy addresses, CIDRs or `loopback`/`linklocal`/`uniquelocal`' })
  @IsOptional()
  @ValidateBy({ name: 'trustProxy', validator: { validate: (v: unknown) => typeof v === 'string' && parseTrustProxy(v) !== undefined } }, { message: TRUST_PROXY_RULE })
  TRUST_PROXY: string = '0';

  // --- Sealed secrets (rules: sealed-secrets) ---
  @IsOptional()
  @ValidateBy({ name: 'secretsKey', validator: { validate: (v: unknown) => typeof v === 'string' && parses(() => parseSecretsKey('SECRETS_KEY', v)) } }, {
    message: 'SECRETS_KEY must be 32 bytes written as 64 hex digits or as base64 (openssl rand -hex 32)',
  })
  @EnvDoc({ description: 'the master key that seals stored secrets (alert webhook secrets, Telegram bot tokens, Discord webhook URLs): 32 bytes as 64 hex digits or base64 (`openssl rand -hex 32`). Unset: the key file `SECRETS_KEY_FILE`. See [Secrets at rest](security.md#secrets-at-rest)' })
  SECRETS_KEY?: string;

  @EnvDoc({ description: 'during a key rotation only: the old key(s), comma separated, same form as `SECRETS_KEY`; they open values, never seal them' })
  @IsOptional()
  @ValidateBy(
    { name: 'secretsKeyPrevious', validator: { validate: (v: unknown) => typeof v === 'string' && parses(() => parseSecretsKeyList('SECRETS_KEY_PREVIOUS', v)) } },
    { message: 'SECRETS_KEY_PREVIOUS must be a comma-separated list of keys, each 32 bytes as 64 hex digits or as base64' },
  )
  SECRETS_KEY_PREVIOUS?: string;

  @EnvDoc({ description: 'the key file used when `SECRETS_KEY` is unset, created at first start (mode 0600, 64 hex digits) and named in the start-up log line; on PostgreSQL the default is the same path, relative to the working directory; with `DB_PATH=:memory:` and no file set, a key made at start lives as long as the data', unset: 'beside `DB_PATH`: `./data/secrets.key`' })
  @IsOptional()
  @Matches(/\S/, { message: 'SECRETS_KEY_FILE must be a file path' })
  SECRETS_KEY_FILE?: string;

  // --- Authentication (optional bearer tokens) ---
  @EnvDoc({ description: '`none`: no credential, every endpoint takes the `email` it is given; `token`: user-scoped routes need `Authorization: Bearer <token>` and act only on the token\'s e-mail (see Authentication)' })
  @IsOptional()
  @IsIn(AUTH_MODES, { message: `AUTH_MODE must be one of ${AUTH_MODES.join(', ')}` })
  AUTH_MODE: AuthMode = 'none';

  @EnvDoc({ description: 'in `token` mode, `1`/`true` leaves market-wide routes (price and opportunity streams, funding, history, books) open; `0`/`false` asks a token there too' })
  @IsOptional()
  @IsIn(['0', '1', 'true', 'false'], { message: 'AUTH_PUBLIC_MARKET must be 0, 1, true or false' })
  AUTH_PUBLIC_MARKET: string = '1';

  @EnvDoc({ description: 'failed authentications one client IP may make per minute; beyond, 429 `too many failed authentications`' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'AUTH_FAILED_PER_MINUTE must be an integer from 1 to 10000' })
  @Min(1, { message: 'AUTH_FAILED_PER_MINUTE must be an integer from 1 to 10000' })
  @Max(10_000, { message: 'AUTH_FAILED_PER_MINUTE must be an integer from 1 to 10000' })
  AUTH_FAILED_PER_MINUTE: number = 20;

  // --- Market data (rules: quotes, recorders, operating) ---
  @EnvDoc({ description: '`1`/`true` starts the ccxt pro websocket feeds (best bid/ask, spot and USDT perpetual); without it no exchange connection is opened, one warning at start says so and `/health/market` answers `feeds: "off"` (`.env.example`, the Dockerfile and `docker-compose.yml` set `1`)' })
  @IsOptional()
  @IsIn(['0', '1', 'true', 'false'], { message: 'ENABLED_WEBSOCKET must be 0, 1, true or false' })
  ENABLED_WEBSOCKET: string = '0';

  @EnvDoc({ description: '`all` (every supported venue: docs/venues.md "The venues at a glance"), or a comma list of supported venues (any case). A venue that quotes in USDC (its markets `BASE-USDC`) has its spot prices compared with USDT ones through the USDC-USDT spot mid of a watched venue, shown in the event (docs/venues.md)', unset: 'the five: `binance,bybit,okx,gate,bitget`' })
  @IsOptional()
  @IsExchangeList({ message: `EXCHANGES must be all or a comma list of ${EXCHANGE_LIST}` })
  EXCHANGES?: string = undefined;

  @EnvDoc({ description: 'replaces any of ccxt\'s websocket or REST base URLs per venue, for a venue that moved a host or port before ccxt followed: `exchange.key=url` pairs, comma separated (`okx.ws=wss://ws.okx.com/ws/v5,gate.spot=wss://…`), or JSON (`{"okx.ws":"wss://…"}`, nested objects allowed). A key is a path in ccxt\'s `urls.api` of that venue (`okx.ws`, `okx.rest`, `binance.ws.spot`, `binance.ws.future`, `binance.public`, `binance.fapiPublic`, `bybit.ws.public.spot`, `bybit.ws.public.linear`, `bybit.public`, `gate.spot`, `gate.swap.usdt`, `gate.public.spot`, `gate.public.futures`, `bitget.ws.public`, `bitget.spot`, `bitget.mix`, …); a websocket key takes a `wss://` URL, a REST key an `https://` one; anything else stops the start naming the entry. Unset: ccxt 4.5.84\'s URLs, except okx\'s websocket, dialled at `wss://ws.okx.com/ws/v5` (port 443; ccxt still says `:8443`, see docs/venues.md "Endpoints"). The start log names every URL in use per venue; a venue whose websocket refuses every dial for 2 minutes gets one warning naming the URL and the key to set; one whose dials connect but then send nothing is warned as silent, without that hint', allowed: '`exchange.key=url` pairs, comma separated, or a JSON object of them; `wss://` for a websocket key, `https://` for a REST key' })
  @IsOptional()
  @IsExchangeUrls()
  EXCHANGE_URLS?: string = undefined;

  @EnvDoc({ description: '`auto`: USDT pairs on the spot market of 2+ exchanges or with spot and perpetual on one, ranked by 24 h volume; or a comma list of tickers (`BTC-USDT` or `BTCUSDT`)' })
  @IsOptional()
  @IsSymbolList({ message: 'SYMBOLS must be auto or a comma list of tickers such as BTC-USDT or BTCUSDT' })
  SYMBOLS: string = 'auto';

  @EnvDoc({ description: 'tickers left out of opportunities by hand: a comma list of `TICKER` or `exchange:TICKER`, where a ticker is a base asset (`PEPE`: every pair of it) or one pair (`PEPE-USDT`), any case; listed under `excluded` on `/health/market`. A bad item stops the start, named (`SYMBOL_DENYLIST: "kraken:BTC" names no known exchange …`)', allowed: 'empty, or a comma list of `TICKER` or `exchange:TICKER` (`PEPE`, `PEPE-USDT`, `okx:PEPE`)' })
  @IsOptional()
  @ValidateBy(
    { name: 'symbolDenylist', validator: { validate: (v: unknown) => typeof v === 'string' && parseDenylist(v).ok } },
    { message: ({ value }) => { const parsed = parseDenylist(String(value)); return parsed.ok ? '' : parsed.message; } },
  )
  SYMBOL_DENYLIST: string = '';

  @EnvDoc({ description: 'cap of the `auto` universe' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'MAX_SYMBOLS must be an integer from 1 to 5000' })
  @Min(1, { message: 'MAX_SYMBOLS must be an integer from 1 to 5000' })
  @Max(5000, { message: 'MAX_SYMBOLS must be an integer from 1 to 5000' })
  MAX_SYMBOLS: number = 300;

  @EnvDoc({ description: '`http://host:port` of the exchange simulator; every exchange client is pointed at it. It does not start the feeds by itself (the REST jobs, funding and costs, use it alone): set `ENABLED_WEBSOCKET=1` too; without it the service logs one warning at start saying so' })
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'MARKET_SIMULATOR_URL must be an http:// URL' })
  MARKET_SIMULATOR_URL?: string = undefined;

  // Read-only API keys for the signed currency calls; each exchange's set goes together.
  @EnvDoc({ description: 'read-only binance API key; with `BINANCE_API_SECRET` the service makes binance\'s signed currency call (`/sapi/v1/capital/config/getall`) for per-network withdrawal/deposit states and withdrawal fees. Unset: binance\'s networks are unknown (the `cost-defaults` rule defaults, estimated)', allowed: 'non-blank text, set with the rest of its exchange\'s set' })
  @IsCredentialOf('binance')
  BINANCE_API_KEY?: string = undefined;

  @EnvDoc({ description: 'its secret; required with the key (and the key with it), else start-up stops naming the missing one', allowed: 'non-blank text, set with the rest of its exchange\'s set' })
  @IsCredentialOf('binance')
  BINANCE_API_SECRET?: string = undefined;

  @EnvDoc({ description: 'read-only bybit API key, for bybit\'s signed `/v5/asset/coin/query-info` (networks and withdrawal fees); as binance\'s', allowed: 'non-blank text, set with the rest of its exchange\'s set' })
  @IsCredentialOf('bybit')
  BYBIT_API_KEY?: string = undefined;

  @EnvDoc({ description: 'its secret; required with the key', allowed: 'non-blank text, set with the rest of its exchange\'s set' })
  @IsCredentialOf('bybit')
  BYBIT_API_SECRET?: string = undefined;

  @EnvDoc({ description: 'read-only okx API key, for okx\'s signed `/api/v5/asset/currencies` (networks and withdrawal fees); as binance\'s', allowed: 'non-blank text, set with the rest of its exchange\'s set' })
  @IsCredentialOf('okx')
  OKX_API_KEY?: string = undefined;

  @EnvDoc({ description: 'its secret; required with the key', allowed: 'non-blank text, set with the rest of its exchange\'s set' })
  @IsCredentialOf('okx')
  OKX_API_SECRET?: string = undefined;

  @EnvDoc({ description: 'the okx key\'s passphrase; required with the key. API keys and secrets are never logged; give them no trading or withdrawal permission', allowed: 'non-blank text, set with the rest of its exchange\'s set' })
  @IsCredentialOf('okx')
  OKX_API_PASSWORD?: string = undefined;

  @EnvDoc({ description: 'a feed connection with no data this long since its last quote (pings do not count) is destroyed at once, without a close handshake, and re-dialed after the first reconnect delay, so a dead network path is replaced within this + `MARKET_RECONNECT_BASE_MS` + about 2 s (`test/e2e/market-dead-path.e2e-spec.ts`); a socket whose pong is late is destroyed the same way' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'MARKET_SILENCE_TIMEOUT_MS must be an integer of at least 100' })
  @Min(100, { message: 'MARKET_SILENCE_TIMEOUT_MS must be an integer of at least 100' })
  MARKET_SILENCE_TIMEOUT_MS: number = 30_000;

  @EnvDoc({ description: 'first reconnect delay; doubles per failed attempt, jittered between half and all of it' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'MARKET_RECONNECT_BASE_MS must be an integer of at least 10' })
  @Min(10, { message: 'MARKET_RECONNECT_BASE_MS must be an integer of at least 10' })
  MARKET_RECONNECT_BASE_MS: number = 1000;

  @EnvDoc({ description: 'ceiling of the reconnect delay' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'MARKET_RECONNECT_MAX_MS must be an integer of at least 10' })
  @Min(10, { message: 'MARKET_RECONNECT_MAX_MS must be an integer of at least 10' })
  MARKET_RECONNECT_MAX_MS: number = 30_000;

  @EnvDoc({ description: '24 h volume refresh by REST' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'MARKET_VOLUME_REFRESH_MS must be an integer of at least 1000' })
  @Min(1000, { message: 'MARKET_VOLUME_REFRESH_MS must be an integer of at least 1000' })
  MARKET_VOLUME_REFRESH_MS: number = 60_000;

  @EnvDoc({ description: 'markets reload by REST; a market gone from an exchange\'s list (delisted), or listed with a halted or delisted status (binance `status`, bybit `status`, okx `state`, gate `trade_status` / `in_delisting`, bitget `status` / `symbolStatus`, else ccxt\'s `active: false`), is dropped from its feed, the connection carrying on, and listed under `refused` on `/health/market` with that status as the reason; so is a market the venue refuses at subscribe. The first reload that shows it trading again watches it again and takes it off `refused`' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'MARKET_MARKETS_REFRESH_MS must be an integer of at least 1000' })
  @Min(1000, { message: 'MARKET_MARKETS_REFRESH_MS must be an integer of at least 1000' })
  MARKET_MARKETS_REFRESH_MS: number = 3_600_000;

  @EnvDoc({ description: 'an exchange\'s spot mid of a ticker more than this many percent from the median of the exchanges quoting it (from the other one when only two do) names another coin ...' })
  @IsOptional()
  @Transform(toNumber)
  @IsNumber({}, { message: 'NAME_COLLISION_SPREAD_PERCENT must be a number from 1 to 1000' })
  @Min(1, { message: 'NAME_COLLISION_SPREAD_PERCENT must be a number from 1 to 1000' })
  @Max(1000, { message: 'NAME_COLLISION_SPREAD_PERCENT must be a number from 1 to 1000' })
  NAME_COLLISION_SPREAD_PERCENT: number = 20;

  @EnvDoc({ description: '... once it has stayed off this long without a break: that exchange\'s ticker is left out of opportunities (live stream, history recorder) and listed under `excluded` on `/health/market` until its price is back in line' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'NAME_COLLISION_MIN_MS must be an integer of at least 1000' })
  @Min(1000, { message: 'NAME_COLLISION_MIN_MS must be an integer of at least 1000' })
  NAME_COLLISION_MIN_MS: number = 600_000;

  @EnvDoc({ description: 'worker threads that run the exchanges\' ccxt clients (feeds and REST), exchanges spread over them; the serving thread never handles exchange traffic', unset: 'one per spare core, at least 1' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'INGEST_WORKERS must be an integer from 1 to 5' })
  @Min(1, { message: 'INGEST_WORKERS must be an integer from 1 to 5' })
  @Max(5, { message: 'INGEST_WORKERS must be an integer from 1 to 5' })
  INGEST_WORKERS?: number;

  @EnvDoc({ description: 'old-generation heap limit of each ingest worker, MB; raise it for a universe beyond about 6,000 markets (see [Sizing](../README.md#sizing))' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'INGEST_WORKER_HEAP_MB must be an integer from 128 to 16384' })
  @Min(128, { message: 'INGEST_WORKER_HEAP_MB must be an integer from 128 to 16384' })
  @Max(16384, { message: 'INGEST_WORKER_HEAP_MB must be an integer from 128 to 16384' })
  INGEST_WORKER_HEAP_MB: number = 224;

  // --- Order-book depth of open routes ---
  @EnvDoc({ description: 'keep order books (20 levels a side) of both legs of every open route, for the events\' `size` and GET /v1/market/books; `0` off (`size` is then always null)' })
  @IsOptional()
  @IsIn(['0', '1', 'true', 'false'], { message: 'DEPTH_ENABLED must be 0, 1, true or false' })
  DEPTH_ENABLED: string = '1';

  @EnvDoc({ description: 'books held at once over all exchanges; when it binds, routes in their grace period go first, then the least profitable, the oldest first among equals' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'DEPTH_MAX_BOOKS must be an integer from 2 to 2000' })
  @Min(2, { message: 'DEPTH_MAX_BOOKS must be an integer from 2 to 2000' })
  @Max(2000, { message: 'DEPTH_MAX_BOOKS must be an integer from 2 to 2000' })
  DEPTH_MAX_BOOKS: number = 400;

  @EnvDoc({ description: 'a closed route\'s books are kept this long after it closes, then unsubscribed' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'DEPTH_GRACE_MS must be an integer from 0 to 3600000' })
  @Min(0, { message: 'DEPTH_GRACE_MS must be an integer from 0 to 3600000' })
  @Max(3_600_000, { message: 'DEPTH_GRACE_MS must be an integer from 0 to 3600000' })
  DEPTH_GRACE_MS: number = 60_000;

  @EnvDoc({ description: 'sample recorder period (rules: recorders); `0` off' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'SAMPLE_INTERVAL_MS must be 0 (off) or an integer of at least 100' })
  @Min(0, { message: 'SAMPLE_INTERVAL_MS must be 0 (off) or an integer of at least 100' })
  SAMPLE_INTERVAL_MS: number = 5000;

  @EnvDoc({ description: 'days of samples kept; whole daily partitions are dropped' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'SAMPLE_RETENTION_DAYS must be an integer from 1 to 3650' })
  @Min(1, { message: 'SAMPLE_RETENTION_DAYS must be an integer from 1 to 3650' })
  @Max(3650, { message: 'SAMPLE_RETENTION_DAYS must be an integer from 1 to 3650' })
  SAMPLE_RETENTION_DAYS: number = 14;

  @EnvDoc({ description: 'open streams per client IP; one more is a 429 `too many open streams`' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'SSE_MAX_PER_IP must be an integer of at least 1' })
  @Min(1, { message: 'SSE_MAX_PER_IP must be an integer of at least 1' })
  SSE_MAX_PER_IP: number = 50;

  @EnvDoc({ description: 'bytes a stream client may fall behind before it is disconnected' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'SSE_MAX_BUFFER_BYTES must be an integer of at least 65536' })
  @Min(65536, { message: 'SSE_MAX_BUFFER_BYTES must be an integer of at least 65536' })
  SSE_MAX_BUFFER_BYTES: number = 8 * 1024 * 1024;

  @EnvDoc({ description: 'a `: ping` comment after this much silence on a stream' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'SSE_HEARTBEAT_MS must be an integer of at least 100' })
  @Min(100, { message: 'SSE_HEARTBEAT_MS must be an integer of at least 100' })
  SSE_HEARTBEAT_MS: number = 15_000;

  @EnvDoc({ description: 'a client that skips ticks (does not read) this long is disconnected' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'SSE_STALL_TIMEOUT_MS must be an integer of at least 100' })
  @Min(100, { message: 'SSE_STALL_TIMEOUT_MS must be an integer of at least 100' })
  SSE_STALL_TIMEOUT_MS: number = 30_000;

  /** Slowloris bound: a connection whose request head is not complete this long after it began gets a 408 and is closed. */
  @EnvDoc({ description: 'a connection must deliver its whole request head within this many ms, else it is answered a bare `408` and closed: a client sending its headers a byte at a time (slowloris) holds a connection no longer than this' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'HTTP_HEADERS_TIMEOUT_MS must be an integer from 500 to 120000' })
  @Min(500, { message: 'HTTP_HEADERS_TIMEOUT_MS must be an integer from 500 to 120000' })
  @Max(120_000, { message: 'HTTP_HEADERS_TIMEOUT_MS must be an integer from 500 to 120000' })
  HTTP_HEADERS_TIMEOUT_MS: number = 10_000;

  @EnvDoc({ description: 'requests per client IP per window, ONE budget shared by every route under `/v1/funding-rates`, `/v1/opportunity-history/` and `/v1/arbitrage/`; one more is a 429 `rate limit exceeded` with `Retry-After`' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'ARBITRAGE_RATE_LIMIT must be an integer of at least 1' })
  @Min(1, { message: 'ARBITRAGE_RATE_LIMIT must be an integer of at least 1' })
  ARBITRAGE_RATE_LIMIT: number = 30;

  @EnvDoc({ description: 'that window, in ms' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'ARBITRAGE_RATE_TTL_MS must be an integer of at least 1000' })
  @Min(1000, { message: 'ARBITRAGE_RATE_TTL_MS must be an integer of at least 1000' })
  ARBITRAGE_RATE_TTL_MS: number = 60_000;

  @EnvDoc({ description: 'opportunity-history heartbeat: every route at or above the minimum spread is sampled this often, besides every spread the opportunity stream shows (ms; `0` recorder off, stats and backtests then assume 10000). A sample holds its spread until the route\'s next one, at most one interval (stats\' `minutesAbove`); a gap over 3 intervals ends a window (see [Opportunity history](../README.md#opportunity-history-what-is-recorded))' })
  @IsOptional()
  @Transform(toInt)
  @ValidateBy(
    { name: 'historyInterval', validator: { validate: (v: unknown) => v === 0 || (Number.isInteger(v) && Number(v) >= 1000 && Number(v) <= 3_600_000) } },
    { message: 'HISTORY_INTERVAL_MS must be 0 (recorder off) or an integer from 1000 to 3600000' },
  )
  HISTORY_INTERVAL_MS: number = 10_000;

  @EnvDoc({ description: 'the recorder stores a spot route\'s spread (ticker, buy, sell) only when it is at least this percent gross; the closing spread of a route the stream showed is stored whatever it is' })
  @IsOptional()
  @Transform(toNumber)
  @IsNumber({}, { message: 'HISTORY_MIN_SPREAD_PERCENT must be a number from -100 to 100' })
  @Min(-100, { message: 'HISTORY_MIN_SPREAD_PERCENT must be a number from -100 to 100' })
  @Max(100, { message: 'HISTORY_MIN_SPREAD_PERCENT must be a number from -100 to 100' })
  HISTORY_MIN_SPREAD_PERCENT: number = 0;

  @EnvDoc({ description: 'recorded opportunity history (and route episodes) older than this many days is deleted daily, in chunks' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'HISTORY_RETENTION_DAYS must be an integer from 1 to 3650' })
  @Min(1, { message: 'HISTORY_RETENTION_DAYS must be an integer from 1 to 3650' })
  @Max(3650, { message: 'HISTORY_RETENTION_DAYS must be an integer from 1 to 3650' })
  HISTORY_RETENTION_DAYS: number = 90;

  // --- Calculator (rules: calculator, limits, calculator-market-data) ---
  @EnvDoc({ description: 'how long `POST /v1/calculators/process` reuses the market data of a (ticker, exchange) (ms; the API contract: 55 s)' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'CALCULATOR_PROCESS_CACHE_MS must be an integer from 0 to 3600000' })
  @Min(0, { message: 'CALCULATOR_PROCESS_CACHE_MS must be an integer from 0 to 3600000' })
  @Max(3_600_000, { message: 'CALCULATOR_PROCESS_CACHE_MS must be an integer from 0 to 3600000' })
  CALCULATOR_PROCESS_CACHE_MS: number = 55_000;

  @EnvDoc({ description: 'how long the calculator stream reuses the market data of a (ticker, exchange) (ms; the API contract: 5 s)' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'CALCULATOR_STREAM_CACHE_MS must be an integer from 0 to 3600000' })
  @Min(0, { message: 'CALCULATOR_STREAM_CACHE_MS must be an integer from 0 to 3600000' })
  @Max(3_600_000, { message: 'CALCULATOR_STREAM_CACHE_MS must be an integer from 0 to 3600000' })
  CALCULATOR_STREAM_CACHE_MS: number = 5000;

  @EnvDoc({ description: 'oldest recorded sample the calculator counts as market data (ms; the API contract: 20 min)' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'CALCULATOR_MARKET_DATA_MAX_AGE_MS must be an integer from 1000 to 86400000' })
  @Min(1000, { message: 'CALCULATOR_MARKET_DATA_MAX_AGE_MS must be an integer from 1000 to 86400000' })
  @Max(86_400_000, { message: 'CALCULATOR_MARKET_DATA_MAX_AGE_MS must be an integer from 1000 to 86400000' })
  CALCULATOR_MARKET_DATA_MAX_AGE_MS: number = 1_200_000;

  @EnvDoc({ description: 'cadence of the looker price streams (ms; the API contract says 1 s, lower only for tests)' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'LOOKER_STREAM_INTERVAL_MS must be an integer from 50 to 60000' })
  @Min(50, { message: 'LOOKER_STREAM_INTERVAL_MS must be an integer from 50 to 60000' })
  @Max(60_000, { message: 'LOOKER_STREAM_INTERVAL_MS must be an integer from 50 to 60000' })
  LOOKER_STREAM_INTERVAL_MS: number = 1000;

  @EnvDoc({ description: 'an opportunity must exceed this gross spread, in percent' })
  @IsOptional()
  @Transform(toNumber)
  @IsNumber({}, { message: 'ARBITRAGE_MIN_PROFIT_PERCENT must be a number from 0 to 100' })
  @Min(0, { message: 'ARBITRAGE_MIN_PROFIT_PERCENT must be a number from 0 to 100' })
  @Max(100, { message: 'ARBITRAGE_MIN_PROFIT_PERCENT must be a number from 0 to 100' })
  ARBITRAGE_MIN_PROFIT_PERCENT: number = 0.1;

  @EnvDoc({ description: 'per-symbol debounce of the opportunity stream (ms; the rule is 200 ms, lower only for tests)' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'ARBITRAGE_DEBOUNCE_MS must be an integer from 10 to 10000' })
  @Min(10, { message: 'ARBITRAGE_DEBOUNCE_MS must be an integer from 10 to 10000' })
  @Max(10_000, { message: 'ARBITRAGE_DEBOUNCE_MS must be an integer from 10 to 10000' })
  ARBITRAGE_DEBOUNCE_MS: number = 200;

  @EnvDoc({ description: 'notional (USDT) an opportunity\'s withdrawal fee is charged against in `netProfitPercent`' })
  @IsOptional()
  @Transform(toNumber)
  @IsNumber({}, { message: 'NET_REFERENCE_USDT must be a number from 1 to 10000000' })
  @Min(1, { message: 'NET_REFERENCE_USDT must be a number from 1 to 10000000' })
  @Max(10_000_000, { message: 'NET_REFERENCE_USDT must be a number from 1 to 10000000' })
  NET_REFERENCE_USDT: number = 1000;

  @EnvDoc({ description: 'cadence of the price snapshot stream' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'PRICES_INTERVAL_MS must be an integer of at least 50' })
  @Min(50, { message: 'PRICES_INTERVAL_MS must be an integer of at least 50' })
  PRICES_INTERVAL_MS: number = 1000;

  // --- Funding rates (rules: funding) ---
  @EnvDoc({ description: 'funding collector period (REST, every USDT perpetual of each exchange), in ms; `0` off. Runs when `ENABLED_WEBSOCKET=1` or `MARKET_SIMULATOR_URL` is set; `GET /v1/funding-rates` serves its last ranking' })
  @IsOptional()
  @Transform(toInt)
  @ValidateBy(
    { name: 'fundingRefresh', validator: { validate: (v: unknown) => v === 0 || (Number.isInteger(v) && Number(v) >= 100 && Number(v) <= 86_400_000) } },
    { message: 'FUNDING_REFRESH_MS must be 0 (off) or an integer from 100 to 86400000' },
  )
  FUNDING_REFRESH_MS: number = 60_000;

  @EnvDoc({ description: 'days of settled funding payments kept in `funding_settlements`; older rows are deleted hourly by the collector' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'FUNDING_RETENTION_DAYS must be an integer from 30 to 3650' })
  @Min(30, { message: 'FUNDING_RETENTION_DAYS must be an integer from 30 to 3650' })
  @Max(3650, { message: 'FUNDING_RETENTION_DAYS must be an integer from 30 to 3650' })
  FUNDING_RETENTION_DAYS: number = 90;

  // --- Crossing counts (rules: crossing-counts) ---
  @EnvDoc({ description: '`1`/`true`: the crossing-count job runs daily at 00:10 São Paulo time for the previous day; `0`/`false`: only on `POST /v1/arbitrage/future/crossing-counts`' })
  @IsOptional()
  @IsIn(['0', '1', 'true', 'false'], { message: 'CROSSING_JOB_ENABLED must be 0, 1, true or false' })
  CROSSING_JOB_ENABLED: string = '1';

  // --- Scale-out ---
  @EnvDoc({ description: '`all`: everything in one process, no Redis needed; `ingest`: feeds, quote book, detector, recorders and scheduled jobs, publishing to Redis; `api`: REST and SSE only, fed from Redis (see [Running several instances](../README.md#running-several-instances))' })
  @IsOptional()
  @IsIn(ROLES, { message: `ROLE must be one of ${ROLES.join(', ')}` })
  ROLE: Role = 'all';

  @EnvDoc({ description: '`redis://host:port[/db]`; required by `ROLE=ingest` and `ROLE=api`. With `ROLE=all` it moves the arbitrage rate limit and the per-IP stream cap into Redis' })
  @IsOptional()
  @Matches(/^rediss?:\/\/\S+$/, { message: 'REDIS_URL must be a redis:// URL' })
  REDIS_URL?: string = undefined;

  @EnvDoc({ description: 'first characters of every Redis key, channel and stream the service uses' })
  @IsOptional()
  @Matches(/^[A-Za-z0-9:_.-]{1,64}$/, { message: 'REDIS_KEY_PREFIX must be 1 to 64 letters, digits or :_.-' })
  REDIS_KEY_PREFIX: string = 'arbitrage:';

  // --- Alerts ---
  @EnvDoc({ description: 'base URL of Telegram\'s Bot API for the `telegram` alert channel (`<url>/bot<token>/sendMessage`); https, and held to the same address check as every alert target (http only with `ALERT_TARGETS_ALLOW_PRIVATE=1`); tests point it at a local fake (see [Alerts](../README.md#alerts))' })
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, { message: 'TELEGRAM_API_URL must be an http or https URL without query' })
  TELEGRAM_API_URL: string = 'https://api.telegram.org';

  @EnvDoc({ description: 'how often the alert sender looks for due notifications, i.e. retries (ms); a new firing is sent at once' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'ALERT_SEND_INTERVAL_MS must be an integer from 50 to 60000' })
  @Min(50, { message: 'ALERT_SEND_INTERVAL_MS must be an integer from 50 to 60000' })
  @Max(60_000, { message: 'ALERT_SEND_INTERVAL_MS must be an integer from 50 to 60000' })
  ALERT_SEND_INTERVAL_MS: number = 1000;

  @EnvDoc({ description: 'first retry wait of a failed alert delivery; doubles per attempt (equal jitter, at most 1 h a wait) until 24 h after the firing (ms)' })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'ALERT_RETRY_BASE_MS must be an integer from 10 to 3600000' })
  @Min(10, { message: 'ALERT_RETRY_BASE_MS must be an integer from 10 to 3600000' })
  @Max(3_600_000, { message: 'ALERT_RETRY_BASE_MS must be an integer from 10 to 3600000' })
  ALERT_RETRY_BASE_MS: number = 5000;

  // rules: outbound-targets. Off, an alert may only reach public addresses over https.
  @EnvDoc({ description: '`1`/`true`: alert targets (webhook and Discord URLs, `TELEGRAM_API_URL`) may use http and reach loopback, private, link-local and the other non-public addresses: for receivers on the trader\'s own LAN, and for tests. Off, a target must be https on public addresses only (see [Outbound targets](../README.md#outbound-targets))' })
  @IsOptional()
  @IsIn(['0', '1', 'true', 'false'], { message: 'ALERT_TARGETS_ALLOW_PRIVATE must be 0, 1, true or false' })
  ALERT_TARGETS_ALLOW_PRIVATE: string = '0';
}
