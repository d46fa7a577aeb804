import { createHmac } from 'node:crypto';
import type { AlertMessage } from './alert-message.js';
import type { AlertChannel } from './alert-rule.types.js';

/** One HTTP request to a channel, built without side effects. */
export interface ChannelRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface Notification {
  /** The notification's id: the Idempotency-Key of every attempt. */
  id: string;
  message: AlertMessage;
}

/** Discord refuses messages longer than this; Telegram's limit (4096) is above it. */
const MAX_TEXT_CHARS = 2000;

export const SIGNATURE_HEADER = 'X-Signature';
export const TIMESTAMP_HEADER = 'X-Signature-Timestamp';

/** `sha256=<hex HMAC-SHA256 of body under secret>`, as GitHub signs its webhooks. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * The request that delivers `n` over `channel` at `now`. A webhook gets the whole message as JSON
 * with `sentAt` (also in the timestamp header, in Unix seconds) inside the signed body, so a
 * receiver can refuse an old replayed request; Telegram and Discord get the note as text.
 */
export function channelRequest(channel: AlertChannel, n: Notification, now: number, telegramApiUrl: string): ChannelRequest {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'Idempotency-Key': n.id };
  const text = n.message.text.slice(0, MAX_TEXT_CHARS);
  switch (channel.type) {
    case 'webhook': {
      const seconds = Math.floor(now / 1000);
      const body = JSON.stringify({ id: n.id, ...n.message, sentAt: seconds });
      if (channel.secret !== null) {
        headers[TIMESTAMP_HEADER] = String(seconds);
        headers[SIGNATURE_HEADER] = signBody(channel.secret, body);
      }
      return { url: channel.url, headers, body };
    }
    case 'telegram':
      return {
        url: `${telegramApiUrl}/bot${channel.botToken}/sendMessage`,
        headers,
        body: JSON.stringify({ chat_id: channel.chatId, text, disable_web_page_preview: true }),
      };
    case 'discord':
      return { url: channel.webhookUrl, headers, body: JSON.stringify({ content: text, allowed_mentions: { parse: [] } }) };
  }
}

/** Delivered; failed (retried until 24 h); or blocked: the target was refused before any connection, never retried. */
export type DeliveryOutcome =
  | { ok: true }
  | { ok: false; error: string; retryAfterMs: number | null }
  | { ok: false; blocked: true; error: string };

/**
 * Reads a channel's answer: any 2xx delivers. A refusal's wait comes from Retry-After, else from
 * the body's `retry_after` in seconds (Telegram: `parameters.retry_after`; Discord: `retry_after`).
 * The error text is built here from the status only, never from the answer or the URL. A 3xx is
 * an answer like any other: redirects are not followed (rules: outbound-targets).
 */
export function readOutcome(status: number, retryAfterHeaderMs: number | null, body: unknown): DeliveryOutcome {
  if (status >= 200 && status < 300) return { ok: true };
  const error = status >= 300 && status < 400 ? `HTTP ${status}: redirect not followed` : `HTTP ${status}`;
  return { ok: false, error, retryAfterMs: retryAfterHeaderMs ?? bodyRetryAfterMs(body) };
}

function bodyRetryAfterMs(body: unknown): number | null {
  if (typeof body !== 'object' || body === null) return null;
  const record = body as { retry_after?: unknown; parameters?: { retry_after?: unknown } };
  const seconds = record.parameters?.retry_after ?? record.retry_after;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds * 1000) : null;
}
