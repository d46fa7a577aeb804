import { readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Exchange, MarketInterface, Ticker } from 'ccxt';
import type { ExchangeCredentials } from '../../config/exchange-credentials.js';
import { dec, roundFigure } from '../../common/money/money.js';
import type { ExchangeName } from '../../market-model/exchanges.js';
import { VENUES, venueOf } from '../../venues/registry.js';

/**
 * Builds the ccxt pro client of each exchange, configured for spot + USDT perpetual markets, and
 * (with `simulatorUrl`) pointed at the bundled exchange simulator instead of the real venue.
 * Only this file, the market-data core and src/simulator import ccxt.
 */
export interface ExchangeClientOptions {
  /** `http://host:port` of the exchange simulator (MARKET_SIMULATOR_URL). */
  simulatorUrl?: string;
  markets?: 'spot-and-perp';
  /**
   * ccxt's request limiter (REST calls and websocket subscribe sends, per client); on by default
   * for real venues, off against the simulator: with it, binance's 24 h tickers alone wait 2.8 s
   * per refresh, which the e2e suite's short refresh periods do not allow for.
   */
  enableRateLimit?: boolean;
  /**
   * Read-only API keys: ccxt then signs the exchange's private currency call (fetchCurrencies on
   * binance, bybit, okx). Give them only to the client that makes that call.
   */
  credentials?: ExchangeCredentials;
  /** ccxt `urls.api` leaves replaced, by dotted path (`ws`, `ws.future`): EXCHANGE_URLS and the service's defaults. */
  urls?: Readonly<Record<string, string>>;
}

type ProConstructor = new (config?: Record<string, unknown>) => Exchange;

/** The ccxt version whose file layout `loadProClasses` relies on (package.json pins it exactly). */
export const CCXT_VERSION = '4.5.84';

/**
 * The pro classes of the registry's venues, loaded by file. `import 'ccxt'` evaluates all of its
 * ~110 exchanges: 44 MB of heap and 0.5 s in every ingest worker; the five we used first took
 * 16 MB and 0.2 s by themselves (BENCHMARKS.md). ccxt's `exports` map exposes only its root, so
 * the files are reached by path from the package's own folder, and the pinned version is checked:
 * a ccxt upgrade must re-check this layout (js/src/pro/<id>.js, default export the class).
 */
async function loadProClasses(): Promise<ReadonlyMap<ExchangeName, ProConstructor>> {
  // The CommonJS entry is <root>/dist/ccxt.cjs.
  const root = path.dirname(path.dirname(createRequire(import.meta.url).resolve('ccxt')));
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  if (version !== CCXT_VERSION) throw new Error(`ccxt ${version} is installed; exchange-clients.ts is written for ${CCXT_VERSION}`);
  const load = async (id: string): Promise<ProConstructor> => {
    const mod = (await import(pathToFileURL(path.join(root, 'js', 'src', 'pro', `${id}.js`)).href)) as { default: ProConstructor };
    return mod.default;
  };
  return new Map(await Promise.all(VENUES.map(async (v) => [v.name, await load(v.ccxt.id)] as const)));
}

const PRO_CLASSES = await loadProClasses();

function proClassOf(exchange: ExchangeName): ProConstructor {
  const Pro = PRO_CLASSES.get(exchange);
  if (!Pro) throw new Error(`no ccxt class loaded for ${exchange}`);
  return Pro;
}

export function createExchangeClient(exchange: ExchangeName, opts: ExchangeClientOptions = {}): Exchange {
  const Pro = proClassOf(exchange);
  const { ccxt } = venueOf(exchange);
  // Only the market types the service uses, so loadMarkets makes the fewest REST calls;
  // currencies are not needed for quotes or volumes.
  const config: Record<string, unknown> = {
    enableRateLimit: opts.enableRateLimit ?? opts.simulatorUrl === undefined,
    options: { ...ccxt.options, defaultType: 'spot' },
    has: { fetchCurrencies: false },
  };
  if (opts.credentials !== undefined) {
    const { apiKey, secret, password } = opts.credentials;
    Object.assign(config, password === undefined ? { apiKey, secret } : { apiKey, secret, password });
    if (ccxt.keyedOptions) config.options = { ...(config.options as object), ...ccxt.keyedOptions };
  }
  const template = defaultsOf(exchange);
  const api = opts.urls === undefined ? template.urls.api : withUrls(template.urls.api, opts.urls);
  if (api !== template.urls.api) config.urls = { ...template.urls, api };
  // ccxt refuses plain ws:// in Node without an agent: an EXCHANGE_URLS entry may name one (a
  // local relay, or the simulator reached as a venue would be).
  if (Object.values(opts.urls ?? {}).some((url) => url.startsWith('ws://'))) config.httpAgent = new http.Agent({ keepAlive: true });
  if (opts.simulatorUrl !== undefined) {
    config.urls = { ...template.urls, api: rewriteApiUrls(api, template.hostname, opts.simulatorUrl) };
    // ccxt refuses plain ws:// in Node without an agent.
    config.httpAgent = new http.Agent({ keepAlive: true });
  }
  const client = new Pro(config);
  if (ccxt.lotPrefixes) renameLetterLots(client, ccxt.lotPrefixes);
  return client;
}

/** ccxt 4.5.84's currency lookup, which every market, symbol and coin name of a client goes through. */
interface CurrencyLookup {
  safeCurrency(id: string | undefined, currency?: unknown): { code?: string };
}

/**
 * Renames a venue's letter-prefixed lot names (`kPEPE`, 1,000 PEPE) to the numeric lot form
 * (`1000PEPE`) wherever the client turns a venue name into a currency code: market symbols
 * (`1000PEPE/USDC:USDC`), funding rows and websocket coins all agree, and the market model reads
 * the lot as it reads binance's. Only a lower-case prefix before an upper-case name is a lot.
 */
export function renameLetterLots(client: Exchange, prefixes: Readonly<Record<string, number>>): void {
  const lookup = client as unknown as CurrencyLookup;
  const original = lookup.safeCurrency.bind(client);
  const rules = Object.entries(prefixes).map(([prefix, units]) => ({ pattern: new RegExp(`^${prefix}(?=[A-Z])`), units }));
  lookup.safeCurrency = (id, currency) => {
    const rule = id === undefined ? undefined : rules.find((r) => r.pattern.test(id));
    const found = original(id, currency);
    return rule && id !== undefined ? { ...found, code: id.replace(rule.pattern, String(rule.units)) } : found;
  };
}

/** A copy of ccxt's `urls.api` tree with the leaves at these dotted paths replaced. */
export function withUrls(api: unknown, urls: Readonly<Record<string, string>>): unknown {
  if (Object.keys(urls).length === 0) return api;
  const copy = structuredClone(api) as Record<string, unknown>;
  for (const [path, url] of Object.entries(urls)) {
    const keys = path.split('.');
    const last = keys.pop() ?? '';
    let node: Record<string, unknown> = copy;
    for (const key of keys) {
      const next = node[key];
      if (typeof next !== 'object' || next === null) throw new Error(`ccxt has no URL at ${path}`);
      node = next as Record<string, unknown>;
    }
    if (typeof node[last] !== 'string') throw new Error(`ccxt has no URL at ${path}`);
    node[last] = url;
  }
  return copy;
}

interface ClientDefaults {
  urls: Exchange['urls'];
  hostname: string | undefined;
}

// Building a ccxt client costs ~100 ms of CPU; the default URLs never change, so read them once.
const defaults = new Map<ExchangeName, ClientDefaults>();

function defaultsOf(exchange: ExchangeName): ClientDefaults {
  let found = defaults.get(exchange);
  if (!found) {
    const template = new (proClassOf(exchange))();
    found = { urls: template.urls, hostname: template.hostname };
    defaults.set(exchange, found);
  }
  return found;
}

/**
 * Rewrites every URL under `urls.api` to `<simulator>/<original-host>/<original-path>`; keeping
 * the original host as the first segment keeps ccxt's own URL sniffing working (binance's spot
 * socket is recognised by `/stream`, bybit's by `spot`, gate's market type by `fx`).
 */
export function rewriteApiUrls(api: unknown, hostname: string | undefined, simulatorUrl: string): unknown {
  const base = new URL(simulatorUrl);
  const rewrite = (value: unknown): unknown => {
    if (typeof value === 'string') return rewriteUrl(value, hostname, base);
    if (Array.isArray(value)) return value.map(rewrite);
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewrite(v)]));
    }
    return value;
  };
  return rewrite(api);
}

function rewriteUrl(value: string, hostname: string | undefined, base: URL): string {
  const filled = hostname === undefined ? value : value.replaceAll('{hostname}', hostname);
  const match = /^(https?|wss?):\/\/(.*)$/.exec(filled);
  if (!match) return filled;
  const [, scheme = '', rest = ''] = match;
  const secure = scheme.startsWith('ws') ? 'ws' : 'http';
  return `${secure}://${base.host}${base.pathname.replace(/\/$/, '')}/${rest}`;
}

/**
 * Converts a book size in ccxt's amount unit (contracts on okx and gate perpetuals) to base units.
 * The product is rounded to 15 significant digits, more than any venue's lot precision, so
 * 2517 contracts of 0.0001 read 0.2517 as the venue means it, not the binary 0.25170000000000003.
 */
export function toBaseQuantity(market: Pick<MarketInterface, 'contractSize'> | undefined, amount: number): number {
  const size = market?.contractSize;
  return size === undefined || size === null ? amount : Number((amount * size).toPrecision(15));
}

/** Venues report 24 h quote volumes to the cent at most; one computed here is rounded to it once. */
const QUOTE_VOLUME_DECIMALS = 2;

/**
 * 24 h volume in the quote currency. ccxt fills `quoteVolume` on every venue except okx
 * perpetuals, whose tickers carry only `volCcy24h` (base units) next to `vol24h` (contracts).
 * A volume the venue sent is passed on as sent; base × last is computed in decimal and rounded
 * to the cent, so no binary tail (1.2100000000000002) reaches a stream.
 */
export function quoteVolumeOf(ticker: Ticker, market?: Pick<MarketInterface, 'contractSize'>): number | undefined {
  if (ticker.quoteVolume !== undefined && ticker.quoteVolume !== null) return ticker.quoteVolume;
  const info = ticker.info as Record<string, unknown> | undefined;
  const baseFromInfo = typeof info?.volCcy24h === 'string' ? Number(info.volCcy24h) : undefined;
  const base = baseFromInfo ?? (ticker.baseVolume === undefined ? undefined : toBaseQuantity(market, ticker.baseVolume));
  const price = ticker.last ?? ticker.close;
  if (base === undefined || price === undefined || !Number.isFinite(base) || !Number.isFinite(price)) return undefined;
  return roundFigure(dec(base).times(price), null, QUOTE_VOLUME_DECIMALS);
}
