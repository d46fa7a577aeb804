import { isIP } from 'node:net';
import { LOAD_RATE_MAX } from './control-validation.js';
import { DEFAULT_SIM_SYMBOLS } from './instruments.js';
import { SCALE_MAX } from './strict-validation.js';
import type { EnvRow } from '../config/env-doc.js';

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
const FLAG = '`1`, `0`, `true`, `false`';
const RULES = {
  port: 'an integer from 1 to 65535',
  host: 'an IP address or a host name',
  symbols: 'a comma list of base assets such as BTC,ETH',
  rate: `an integer from 0 to ${LOAD_RATE_MAX} (messages per second)`,
  scale: `a number greater than 0 and at most ${SCALE_MAX}`,
};

/**
 * Every variable the simulator reads, as docs/configuration.md lists them (`npm run openapi` writes
 * the table); a variable read by loadSimulatorConfig without its row here fails its spec.
 */
export const SIMULATOR_VARIABLES: readonly EnvRow[] = [
  { name: 'SIM_PORT', default: `\`${DEFAULT_PORT}\``, allowed: RULES.port, description: 'HTTP + websocket port' },
  {
    name: 'SIM_HOST',
    default: `\`${DEFAULT_HOST}\``,
    allowed: RULES.host,
    description:
      'interface to listen on; its control API `/_sim/` has no authentication, so it stays on this machine unless told otherwise (`0.0.0.0` in the compose demo, whose ports are published). The start line names the address it listens on',
  },
  {
    name: 'SIM_SYMBOLS',
    default: DEFAULT_SIM_SYMBOLS.join(', '),
    allowed: `${RULES.symbols} (or \`BTCUSDT\` / \`BTC-USDT\`)`,
    description: 'base assets, each listed against USDT, spot and perpetual, on all five exchanges; unknown bases get a stable pseudo-price',
  },
  { name: 'SIM_WALK', default: '`0`', allowed: FLAG, description: '`1` starts the random walk at once' },
  { name: 'SIM_RATE', default: '`0`', allowed: RULES.rate, description: 'load mode from the start: messages per second in total, see `POST /_sim/load`' },
  {
    name: 'SIM_STRICT',
    default: '`1`',
    allowed: FLAG,
    description:
      "strict mode: each venue's published limits enforced and breaches counted ([docs/venues.md](venues.md)); it never slows what the simulator sends (load mode unaffected). On for the demo and the e2e suite (`startSimulator()` is strict unless given `strict: false`); `0` turns it off for micro-tests of one protocol detail",
  },
  {
    name: 'SIM_DEMO',
    default: '`0` (`1` under `npm run demo`)',
    allowed: FLAG,
    description:
      'demo mode: every base gets a transfer network on all five venues with a realistic withdrawal fee (about 0.6 USDT, 1.5 on BTC, 2.5 on ERC20 tokens; about one venue in sixteen closed for withdrawal or deposit), and one dislocation of the walk in ten is 0.6–1.5 % wide, so a transferable route with a positive net spread opens every minute or so',
  },
  {
    name: 'SIM_LIFETIME_SCALE',
    default: '`1`',
    allowed: RULES.scale,
    description: "multiplies the venues' forced connection lifetime (binance and bitget close every connection after 24 h), e.g. `0.001` for 86 s",
  },
];

const SYMBOL = /^[A-Z0-9]{1,20}$/;

function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_PORT;
  const port = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || port < 1 || port > 65535) {
    throw new InvalidSimulatorEnvError('SIM_PORT', `must be ${RULES.port}`);
  }
  return port;
}

/** An IP address or a host name; nothing else reaches `listen`. */
function parseHost(raw: string | undefined): string {
  if (raw === undefined || raw.trim() === '') return DEFAULT_HOST;
  const host = raw.trim();
  if (isIP(host) === 0 && !/^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(host)) {
    throw new InvalidSimulatorEnvError('SIM_HOST', `must be ${RULES.host}`);
  }
  return host;
}

/** Base assets (`BTC`), or pairs against USDT (`BTCUSDT`, `BTC-USDT`, `btc/usdt`), comma separated. */
function parseSymbols(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return [...DEFAULT_SIM_SYMBOLS];
  const bases = raw.split(',').map((s) => s.trim().toUpperCase().replace(/[-_/]?USDT$/, '')).filter(Boolean);
  const bad = bases.find((b) => !SYMBOL.test(b));
  if (bad !== undefined || bases.length === 0) {
    throw new InvalidSimulatorEnvError('SIM_SYMBOLS', `must be ${RULES.symbols}`);
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
    throw new InvalidSimulatorEnvError('SIM_LIFETIME_SCALE', `must be ${RULES.scale}`);
  }
  return value;
}

function parseRate(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 0;
  const rate = Number(raw.trim());
  if (!/^\d+$/.test(raw.trim()) || rate > LOAD_RATE_MAX) {
    throw new InvalidSimulatorEnvError('SIM_RATE', `must be ${RULES.rate}`);
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
