import { parseRetryAfter } from './alert-backoff.engine.js';
import { type ChannelRequest, type DeliveryOutcome, readOutcome } from './alert-channels.js';

/** Sends one channel request; never throws. */
export type AlertHttp = (request: ChannelRequest, now: number) => Promise<DeliveryOutcome>;

const TIMEOUT_MS = 10_000;
/** Only a refusal's JSON (for its retry_after) is read; bigger answers are not parsed. */
const MAX_READ_CHARS = 16_384;

/**
 * fetch with a 10 s limit. A network failure is reported by its code only (ECONNREFUSED,
 * timeout), never with the URL, which for Telegram and Discord holds the token.
 */
export const fetchAlertHttp: AlertHttp = async (request, now) => {
  try {
    const res = await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = res.ok ? '' : (await res.text()).slice(0, MAX_READ_CHARS);
    if (res.ok) await res.body?.cancel().catch(() => undefined);
    return readOutcome(res.status, parseRetryAfter(res.headers.get('retry-after'), now), parseJson(text));
  } catch (err) {
    return { ok: false, error: networkError(err), retryAfterMs: null };
  }
};

function parseJson(text: string): unknown {
  try {
    return text === '' ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

function networkError(err: unknown): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return `no answer within ${TIMEOUT_MS / 1000} s`;
  const cause = err instanceof Error ? (err.cause as { code?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === 'string' && /^[A-Z_]{2,40}$/.test(cause.code) ? cause.code : 'unreachable';
  return `connection failed (${code})`;
}
