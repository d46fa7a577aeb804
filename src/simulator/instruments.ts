/**
 * Reference data for the simulated markets: a realistic starting mid, price tick, lot step and
 * 24 h quote volume per base asset. Every exchange starts from the same mid (rules: operating; no
 * cross-exchange spread until the control API or the random walk creates one).
 */
export const DEFAULT_SIM_SYMBOLS = [
  'BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'ADA', 'AVAX', 'LINK', 'DOT', 'LTC',
  'BNB', 'TRX', 'TON', 'NEAR', 'APT', 'ARB', 'OP', 'SUI', 'PEPE', 'SHIB',
] as const;

export const SIM_QUOTE_ASSET = 'USDT';

export interface Instrument {
  base: string;
  quote: string;
  /** Canonical ticker (`BTC-USDT`). */
  ticker: string;
  mid: number;
  tick: number;
  /** Smallest base-quantity increment. */
  lotStep: number;
  /** 24 h volume in USDT. */
  volume: number;
}

interface Reference {
  mid: number;
  tick: number;
  volume: number;
}

// Late-2025 orders of magnitude; ticks as the large venues quote them.
const REFERENCES: Readonly<Record<string, Reference>> = {
  BTC: { mid: 97_250, tick: 0.1, volume: 1_850_000_000 },
  ETH: { mid: 3_420, tick: 0.01, volume: 920_000_000 },
  SOL: { mid: 182.4, tick: 0.01, volume: 410_000_000 },
  XRP: { mid: 2.318, tick: 0.0001, volume: 260_000_000 },
  DOGE: { mid: 0.3215, tick: 0.00001, volume: 190_000_000 },
  ADA: { mid: 0.9042, tick: 0.0001, volume: 84_000_000 },
  AVAX: { mid: 35.62, tick: 0.01, volume: 52_000_000 },
  LINK: { mid: 20.385, tick: 0.001, volume: 61_000_000 },
  DOT: { mid: 6.512, tick: 0.001, volume: 33_000_000 },
  LTC: { mid: 101.37, tick: 0.01, volume: 47_000_000 },
  BNB: { mid: 652.3, tick: 0.01, volume: 120_000_000 },
  TRX: { mid: 0.25412, tick: 0.00001, volume: 41_000_000 },
  TON: { mid: 5.482, tick: 0.001, volume: 29_000_000 },
  NEAR: { mid: 5.127, tick: 0.001, volume: 38_000_000 },
  APT: { mid: 9.214, tick: 0.001, volume: 24_000_000 },
  ARB: { mid: 0.7531, tick: 0.0001, volume: 31_000_000 },
  OP: { mid: 1.9024, tick: 0.0001, volume: 22_000_000 },
  SUI: { mid: 4.1275, tick: 0.0001, volume: 95_000_000 },
  PEPE: { mid: 0.0000182, tick: 0.0000000001, volume: 140_000_000 },
  SHIB: { mid: 0.00002214, tick: 0.00000001, volume: 36_000_000 },
  // Not in the default list: the stablecoin pair whose mid converts a USDC venue's prices.
  USDC: { mid: 0.9999, tick: 0.0001, volume: 2_400_000_000 },
  // Not in the default list; SIM_SYMBOLS=...,BABYDOGE shows the venues' 1,000,000-unit lots.
  BABYDOGE: { mid: 0.0000000015, tick: 1e-13, volume: 18_000_000 },
};

/** Rounds to the tick and drops binary noise (0.30000000000000004 → 0.3). */
export function roundToStep(value: number, step: number): number {
  const decimals = decimalsOf(step);
  return Number((Math.round(value / step) * step).toFixed(decimals));
}

/** Decimal places of a step such as 0.001 (3) or 1e-10 (10). */
export function decimalsOf(step: number): number {
  if (step >= 1) return 0;
  return Math.max(0, Math.ceil(-Math.log10(step) - 1e-9));
}

/** Formats a number in plain decimal notation with the step's decimals (exchanges never send 1e-7). */
export function formatStep(value: number, step: number): string {
  return value.toFixed(decimalsOf(step));
}

/** Formats a quantity without exponent and without trailing zeros. */
export function formatPlain(value: number): string {
  if (Number.isInteger(value)) return value.toString();
  return value.toFixed(10).replace(/0+$/, '').replace(/\.$/, '');
}

// Unknown bases (SIM_SYMBOLS may list 300 of them for benchmarks) get a stable pseudo-price
// derived from the name, so every run and every exchange agrees on it.
function referenceFor(base: string): Reference {
  const known = REFERENCES[base];
  if (known) return known;
  let hash = 2166136261;
  for (const char of base) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  const mid = 10 ** ((hash % 5000) / 1000 - 2); // 0.01 … 1000
  const tick = 10 ** (Math.floor(Math.log10(mid)) - 4);
  return { mid: roundToStep(mid, tick), tick, volume: 1_000_000 + (hash % 50_000_000) };
}

function lotStepFor(mid: number): number {
  // About one dollar or less per step, as the venues list them (BTC 0.00001, ETH 0.0001, DOGE 1).
  const exponent = Math.ceil(Math.log10(1 / mid));
  return exponent > 0 ? 1 : 10 ** exponent;
}

export function buildInstrument(base: string): Instrument {
  const upper = base.toUpperCase();
  const ref = referenceFor(upper);
  return {
    base: upper,
    quote: SIM_QUOTE_ASSET,
    ticker: `${upper}-${SIM_QUOTE_ASSET}`,
    mid: ref.mid,
    tick: ref.tick,
    lotStep: lotStepFor(ref.mid),
    volume: ref.volume,
  };
}

/**
 * Contract size of a USDT perpetual on venues that trade in contracts (`ctVal`,
 * `quanto_multiplier`): the power of ten worth at most `maxUsd` per contract (1000 gives BTC
 * 0.01, ETH 0.1, DOGE 1000).
 */
export function contractSizeFor(instrument: Instrument, maxUsd: number): number {
  const size = 10 ** Math.floor(Math.log10(maxUsd / instrument.mid));
  return Number(size.toPrecision(1));
}

/** A base quantity in contracts, without float noise (1.5 / 0.01 → 150). */
export function toContracts(baseQty: number, contractSize: number): string {
  return formatPlain(Number((baseQty / contractSize).toFixed(8)));
}
