import type { ExchangeName, Market } from '../market-model/exchanges.js';
import type { Validated } from './control-validation.js';
import { validateDelist } from './strict-validation.js';

/** `POST /_sim/halt {exchange, ticker, market?, halted}`: exchange and ticker are required. */
export function validateHalt(
  body: unknown, known: ReadonlySet<string>,
): Validated<{ exchange: ExchangeName; ticker: string; market?: Market; halted: boolean }> {
  const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
  const fields = isObject ? (body as Record<string, unknown>) : {};
  const checked = validateDelist(isObject ? { ...fields, delisted: fields.halted } : body, known);
  if (!checked.ok) return { ok: false, message: checked.message.replace(/^delisted\b/, 'halted') };
  const { delisted, ...rest } = checked.value;
  return { ok: true, value: { ...rest, halted: delisted } };
}

/** `POST /_sim/restore {exchange, ticker, market?}`: trading again, whether halted or delisted. */
export function validateRestore(
  body: unknown, known: ReadonlySet<string>,
): Validated<{ exchange: ExchangeName; ticker: string; market?: Market }> {
  const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
  const checked = validateDelist(isObject ? { ...(body as Record<string, unknown>), delisted: false } : body, known);
  if (!checked.ok) return checked;
  const { delisted: _ignored, ...rest } = checked.value;
  return { ok: true, value: rest };
}
