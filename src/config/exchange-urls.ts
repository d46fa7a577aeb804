import { ValidateBy, type ValidationOptions } from 'class-validator';
import { EXCHANGE_NAMES, type ExchangeName, type Market, parseExchangeName } from '../market-model/exchanges.js';
import { VENUES } from '../venues/registry.js';
import type { VenueEndpoints } from '../venues/venue.js';

/**
 * EXCHANGE_URLS: per venue, a URL that replaces one of ccxt's websocket or REST base URLs (a
 * venue moved a host or a port before ccxt followed). Keys are `<exchange>.<path>`, the path
 * naming a leaf of ccxt's `urls.api` tree for that venue (`okx.ws`, `binance.ws.future`,
 * `gate.swap.usdt`, `bybit.public`); a `wss://`/`ws://` leaf takes a websocket URL, an
 * `https://`/`http://` leaf an HTTP one. Given as JSON (`{"okx.ws":"wss://..."}`, or nested
 * `{"okx":{"ws":"wss://..."}}`) or as a comma list `okx.ws=wss://...,gate.spot=wss://...`.
 */
export type ExchangeUrlOverrides = Partial<Record<ExchangeName, Readonly<Record<string, string>>>>;

/** A table of every venue from its folder's `endpoints` (src/venues/<name>). */
function perVenue<T>(read: (endpoints: VenueEndpoints) => T): Readonly<Record<ExchangeName, T>> {
  return Object.fromEntries(VENUES.map((v) => [v.name, read(v.endpoints)])) as Record<ExchangeName, T>;
}

/**
 * The leaves of ccxt 4.5.84's `urls.api` per venue, `w` for a websocket URL, `h` for HTTP
 * (`exchange-clients.spec.ts` in market-data checks these against the installed ccxt).
 */
export const CCXT_URL_KEYS = perVenue((e) => e.leaves);

/** Where the service dials by default where that differs from ccxt 4.5.84 (a venue moved before ccxt followed). */
export const DEFAULT_EXCHANGE_URLS: ExchangeUrlOverrides = Object.fromEntries(
  VENUES.flatMap((v) => (v.endpoints.defaults === undefined ? [] : [[v.name, v.endpoints.defaults]])),
);

/**
 * The URLs this service uses on each venue (quotes on spot and perpetuals, and the public REST
 * calls), as EXCHANGE_URLS keys with ccxt 4.5.84's values: what the start log names.
 */
export const SERVICE_ENDPOINTS = perVenue((e) => e.used);

/** The EXCHANGE_URLS key of the websocket each market's quotes come from (some venues share one). */
export const FEED_URL_KEYS: Readonly<Record<ExchangeName, Readonly<Record<Market, string>>>> = perVenue((e) => e.quotes);

export type ParsedExchangeUrls = { ok: true; urls: ExchangeUrlOverrides } | { ok: false; error: string };

/** Parses and checks EXCHANGE_URLS; the error names the entry at fault. */
export function parseExchangeUrls(raw: string): ParsedExchangeUrls {
  const text = raw.trim();
  if (text === '') return { ok: true, urls: {} };
  const entries = text.startsWith('{') ? jsonEntries(text) : listEntries(text);
  if (typeof entries === 'string') return { ok: false, error: entries };
  const urls: Partial<Record<ExchangeName, Record<string, string>>> = {};
  for (const [key, url] of entries) {
    const dot = key.indexOf('.');
    const exchange = parseExchangeName(dot > 0 ? key.slice(0, dot) : key);
    if (exchange === null) return { ok: false, error: `"${key}" does not start with one of ${EXCHANGE_NAMES.join(', ')}` };
    const path = dot > 0 ? key.slice(dot + 1) : '';
    const kind = CCXT_URL_KEYS[exchange][path];
    if (kind === undefined) return { ok: false, error: `"${key}" names no URL of ${exchange} (for example ${exampleKeys(exchange)})` };
    const schemes = kind === 'w' ? ['wss:', 'ws:'] : ['https:', 'http:'];
    if (!isUrlWith(url, schemes)) return { ok: false, error: `"${key}" needs a ${schemes.map((s) => `${s}//`).join(' or ')} URL` };
    (urls[exchange] ??= {})[path] = url;
  }
  return { ok: true, urls };
}

function exampleKeys(exchange: ExchangeName): string {
  return Object.keys(SERVICE_ENDPOINTS[exchange]).map((path) => `${exchange}.${path}`).join(', ');
}

function isUrlWith(value: string, schemes: readonly string[]): boolean {
  try {
    const url = new URL(value);
    return schemes.includes(url.protocol) && url.hostname !== '';
  } catch {
    return false;
  }
}

function listEntries(text: string): [string, string][] | string {
  const out: [string, string][] = [];
  for (const item of text.split(',').map((s) => s.trim()).filter((s) => s !== '')) {
    const eq = item.indexOf('=');
    if (eq <= 0) return `"${item}" is not exchange.key=url`;
    out.push([item.slice(0, eq).trim(), item.slice(eq + 1).trim()]);
  }
  return out;
}

function jsonEntries(text: string): [string, string][] | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'is not valid JSON';
  }
  const out: [string, string][] = [];
  const walk = (value: unknown, key: string): string | undefined => {
    if (typeof value === 'string') {
      out.push([key, value]);
      return undefined;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return `"${key}" must be a URL string`;
    for (const [k, v] of Object.entries(value)) {
      const error = walk(v, key === '' ? k : `${key}.${k}`);
      if (error !== undefined) return error;
    }
    return undefined;
  };
  return walk(parsed, '') ?? out;
}

/** The defaults with EXCHANGE_URLS over them. */
export function toExchangeUrls(raw: string | undefined): ExchangeUrlOverrides {
  const parsed = parseExchangeUrls(raw ?? '');
  const given = parsed.ok ? parsed.urls : {};
  return Object.fromEntries(EXCHANGE_NAMES.map((e) => [e, { ...DEFAULT_EXCHANGE_URLS[e], ...given[e] }]).filter(([, urls]) => Object.keys(urls as object).length > 0)) as ExchangeUrlOverrides;
}

/** The URL of each endpoint the service uses on `exchange`, overrides applied, as `key=url` pairs. */
export function endpointsInUse(exchange: ExchangeName, urls: ExchangeUrlOverrides): Record<string, string> {
  const given = urls[exchange] ?? {};
  return Object.fromEntries(Object.entries(SERVICE_ENDPOINTS[exchange]).map(([path, url]) => [path, given[path] ?? url]));
}

export const IsExchangeUrls = (options?: ValidationOptions): PropertyDecorator =>
  ValidateBy(
    {
      name: 'isExchangeUrls',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && parseExchangeUrls(value).ok,
        defaultMessage: (args) => {
          const parsed = typeof args?.value === 'string' ? parseExchangeUrls(args.value) : { ok: false as const, error: 'must be a string' };
          return `EXCHANGE_URLS ${parsed.ok ? 'is invalid' : parsed.error}: give JSON {"okx.ws":"wss://..."} or a list okx.ws=wss://...,gate.spot=wss://...`;
        },
      },
    },
    options,
  );
