import { ValidateBy, ValidateIf } from 'class-validator';
import type { ExchangeName } from '../market-model/exchanges.js';

/**
 * Optional read-only API keys of the exchanges whose currency/network call is signed (
 * binance, bybit, okx). They reach only the client that makes that one call; without them those
 * exchanges' networks stay unknown and routes use the `recorders` rule defaults. Never logged.
 */
export interface ExchangeCredentials {
  apiKey: string;
  secret: string;
  /** okx's passphrase. */
  password?: string;
}

export type ExchangeCredentialsConfig = Partial<Record<ExchangeName, ExchangeCredentials>>;

export interface CredentialsEnv {
  BINANCE_API_KEY?: string;
  BINANCE_API_SECRET?: string;
  BYBIT_API_KEY?: string;
  BYBIT_API_SECRET?: string;
  OKX_API_KEY?: string;
  OKX_API_SECRET?: string;
  OKX_API_PASSWORD?: string;
}

type CredentialVariable = keyof CredentialsEnv;

/** The variables of each exchange: setting any of a group requires all of it. */
export const CREDENTIAL_GROUPS = {
  binance: ['BINANCE_API_KEY', 'BINANCE_API_SECRET'],
  bybit: ['BYBIT_API_KEY', 'BYBIT_API_SECRET'],
  okx: ['OKX_API_KEY', 'OKX_API_SECRET', 'OKX_API_PASSWORD'],
} as const satisfies Partial<Record<ExchangeName, readonly CredentialVariable[]>>;

/**
 * Validates one credential variable: checked only once any variable of its exchange is set, and
 * then it must be a non-blank value. The message names the missing variable and its partners.
 */
export function IsCredentialOf(exchange: keyof typeof CREDENTIAL_GROUPS): PropertyDecorator {
  const group: readonly string[] = CREDENTIAL_GROUPS[exchange];
  return (target, property) => {
    const name = String(property);
    ValidateIf((env: Record<string, unknown>) => group.some((v) => env[v] !== undefined))(target, property);
    ValidateBy(
      { name: 'credentialOf', validator: { validate: (v: unknown) => typeof v === 'string' && v.trim() !== '' } },
      { message: `${name} must be set too: ${exchange} API credentials need ${listOf(group)}` },
    )(target, property);
  };
}

function listOf(names: readonly string[]): string {
  return names.length <= 2 ? names.join(' and ') : `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
}

/** The validated variables as per-exchange credentials; exchanges without keys are absent. */
export function toCredentialsConfig(env: CredentialsEnv): ExchangeCredentialsConfig {
  const out: ExchangeCredentialsConfig = {};
  if (env.BINANCE_API_KEY && env.BINANCE_API_SECRET) {
    out.binance = { apiKey: env.BINANCE_API_KEY, secret: env.BINANCE_API_SECRET };
  }
  if (env.BYBIT_API_KEY && env.BYBIT_API_SECRET) {
    out.bybit = { apiKey: env.BYBIT_API_KEY, secret: env.BYBIT_API_SECRET };
  }
  if (env.OKX_API_KEY && env.OKX_API_SECRET && env.OKX_API_PASSWORD) {
    out.okx = { apiKey: env.OKX_API_KEY, secret: env.OKX_API_SECRET, password: env.OKX_API_PASSWORD };
  }
  return out;
}
