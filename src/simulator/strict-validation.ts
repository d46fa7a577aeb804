import type { ExchangeName, Market } from '../market-model/exchanges.js';
import { validateFault, validatePause, type Validated } from './control-validation.js';
import type { StrictSettings } from './strict-mode.js';

type Json = Record<string, unknown>;

const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export const SCALE_MAX = 10;
const SCALES = ['timeScale', 'lifetimeScale', 'restScale'] as const;

/** `PUT /_sim/strict {enabled?, timeScale?, lifetimeScale?, restScale?}`: at least one member; scales in (0, 10]. */
export function validateStrict(body: unknown): Validated<Partial<StrictSettings>> {
  if (!isObject(body)) return fail('Invalid request body');
  const out: Partial<StrictSettings> = {};
  if (body.enabled !== undefined && body.enabled !== null) {
    if (typeof body.enabled !== 'boolean') return fail('enabled must be a boolean');
    out.enabled = body.enabled;
  }
  for (const field of SCALES) {
    const value = body[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > SCALE_MAX) {
      return fail(`${field} must be a number greater than 0 and at most ${SCALE_MAX}`);
    }
    out[field] = value;
  }
  if (Object.keys(out).length === 0) return fail(`body must set enabled, ${SCALES.join(', ')} or several`);
  return { ok: true, value: out };
}

/** `POST /_sim/rest-limit {exchange}`: the exchange is required. */
export function validateRestLimit(body: unknown): Validated<{ exchange: ExchangeName }> {
  if (!isObject(body)) return fail('Invalid request body');
  if (body.exchange === undefined || body.exchange === null) return fail('exchange is required');
  const checked = validateFault({ exchange: body.exchange, down: true }, 'down');
  if (!checked.ok) return checked;
  return checked.value.exchange ? { ok: true, value: { exchange: checked.value.exchange } } : fail('exchange is required');
}

/** `POST /_sim/upgrade {exchange, noticeMs?}`: only a venue that announces upgrades (`announcers`); noticeMs 0 to 3,600,000. */
export function validateUpgrade(body: unknown, announcers: readonly ExchangeName[]): Validated<{ exchange: ExchangeName; noticeMs?: number }> {
  const checked = validateRestLimit(body);
  if (!checked.ok) return checked;
  const { exchange } = checked.value;
  if (!announcers.includes(exchange)) {
    const who = announcers.length === 0 ? 'no venue does' : `only ${announcers.join(', ')} ${announcers.length === 1 ? 'does' : 'do'}`;
    return fail(`${exchange} sends no upgrade notice; ${who}`);
  }
  const noticeMs = (body as Json).noticeMs;
  if (noticeMs === undefined || noticeMs === null) return { ok: true, value: { exchange } };
  if (typeof noticeMs !== 'number' || !Number.isInteger(noticeMs) || noticeMs < 0 || noticeMs > 3_600_000) return fail('noticeMs must be an integer from 0 to 3600000');
  return { ok: true, value: { exchange, noticeMs } };
}

/** `POST /_sim/maintenance {exchange?, enabled}`. */
export function validateMaintenance(body: unknown): Validated<{ exchange?: ExchangeName; value: boolean }> {
  if (!isObject(body)) return fail('Invalid request body');
  return relabel(validateFault({ exchange: body.exchange, down: body.enabled }, 'down'));
}

function relabel<T>(checked: Validated<T>): Validated<T> {
  return checked.ok ? checked : fail(checked.message.replace(/^down\b/, 'enabled'));
}

/** `POST /_sim/delist {exchange, ticker, market?, delisted}`: exchange and ticker are required. */
export function validateDelist(
  body: unknown, known: ReadonlySet<string>,
): Validated<{ exchange: ExchangeName; ticker: string; market?: Market; delisted: boolean }> {
  if (!isObject(body)) return fail('Invalid request body');
  if (body.exchange === undefined || body.exchange === null) return fail('exchange is required');
  if (body.ticker === undefined || body.ticker === null) return fail('ticker is required');
  const checked = validatePause({ exchange: body.exchange, market: body.market, ticker: body.ticker, paused: body.delisted }, known);
  if (!checked.ok) return fail(checked.message.replace(/^paused\b/, 'delisted'));
  const { filter, paused } = checked.value;
  if (!filter.exchange || !filter.ticker) return fail('Invalid request body');
  return { ok: true, value: { exchange: filter.exchange, ticker: filter.ticker, ...(filter.market ? { market: filter.market } : {}), delisted: paused } };
}
