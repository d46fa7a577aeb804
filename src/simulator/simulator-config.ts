import { isIP } from 'node:net';
import { LOAD_RATE_MAX } from './control-validation.js';
import { DEFAULT_SIM_SYMBOLS } from './instruments.js';
import { SCALE_MAX } from './strict-validation.js';

/**
 * The simulator's own environment (SIM_PORT, SIM_HOST, SIM_SYMBOLS, SIM_WALK). It is a separate program
 * from the service, so it reads its variables here rather than through src/config.
 */
export interface SimulatorConfig {
  port: number;
  /** SIM_HOST: the interface to listen on; loopback unless told otherwise (its control API has no auth). */
  host: string;
  symbols: string[];
  walk: boolean;
  /** SIM_RATE: load mode, messages per second (0: off). */
  rate: number;
  /** SIM_STRICT: venue limits enforced (`1`); off by default until the e2e suite runs under it. */
  strict: boolean;
  /** SIM_LIFETIME_SCALE: multiplies the venues' forced connection lifetime (24 h), for tests and demos. */
  lifetimeScale: number;
  /** SIM_DEMO: seeded transfer networks and tradeable dislocations (`npm run demo` sets it). */
  demo: boolean;
}

export class InvalidSimulatorEnvError extends Error {
  constructor(readonly variable: string, rule: string) {
    super(`Invalid environment: ${variable} ${rule}`);
    this.name = 'InvalidSimulatorEnvError';
  }
}

const DEFAULT_PORT = 8090;
const DEFAULT_HOST = '127.0.0.1';
const SYMBOL = /^[A-Z0-9]{1,20}$/;

function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_PORT;
  const port = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || port < 1 || port > 65535) {
    throw new InvalidSimulatorEnvError('SIM_PORT', 'must be an integer from 1 to 65535');
  }
  return port;
}

/** An IP address or a host name; nothing else reaches `listen`. */
function parseHost(raw: string | undefined): string {
  if (raw === undefined || raw.trim() === '') return DEFAULT_HOST;
  const host = raw.trim();
  if (isIP(host) === 0 && !/^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(host)) {
    throw new InvalidSimulatorEnvError('SIM_HOST', 'must be an IP address or a host name');
  }
  return host;
}

/** Base assets (`BTC`), or pairs against USDT (`BTCUSDT`, `BTC-USDT`, `btc/usdt`), comma separated. */
function parseSymbols(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return [...DEFAULT_SIM_SYMBOLS];
  const bases = raw.split(',').map((s) => s.trim().toUpperCase().replace(/[-_/]?USDT$/, '')).filter(Boolean);
  const bad = bases.find((b) => !SYMBOL.test(b));
  if (bad !== undefined || bases.length === 0) {
    throw new InvalidSimulatorEnvError('SIM_SYMBOLS', 'must be a comma list of base assets such as BTC,ETH');
  }
  return [...new Set(bases)];
}

function parseFlag(raw: string | undefined, variable = 'SIM_WALK', fallback = false): boolean {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = raw.trim().toLowerCase();
  if (value === '1' || value === 'true') return true;
  if (value === '0' || value === 'false') return false;
  throw new InvalidSimulatorEnvError(variable, 'must be 1, 0, true or false');
}

function parseScale(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 1;
  const value = Number(raw.trim());
  if (!Number.isFinite(value) || value <= 0 || value > SCALE_MAX) {
    throw new InvalidSimulatorEnvError('SIM_LIFETIME_SCALE', `must be a number greater than 0 and at most ${SCALE_MAX}`);
  }
  return value;
}

function parseRate(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 0;
  const rate = Number(raw.trim());
  if (!/^\d+$/.test(raw.trim()) || rate > LOAD_RATE_MAX) {
    throw new InvalidSimulatorEnvError('SIM_RATE', `must be an integer from 0 to ${LOAD_RATE_MAX} (messages per second)`);
  }
  return rate;
}

export function loadSimulatorConfig(env: Record<string, string | undefined>): SimulatorConfig {
  const rate = parseRate(env.SIM_RATE);
  return {
    port: parsePort(env.SIM_PORT), host: parseHost(env.SIM_HOST), symbols: parseSymbols(env.SIM_SYMBOLS), walk: parseFlag(env.SIM_WALK), rate,
    strict: parseFlag(env.SIM_STRICT, 'SIM_STRICT', true), lifetimeScale: parseScale(env.SIM_LIFETIME_SCALE),
    demo: parseFlag(env.SIM_DEMO, 'SIM_DEMO'),
  };
}
