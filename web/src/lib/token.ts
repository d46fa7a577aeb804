import { messageOf } from '../api/client-errors';

const KEY = 'arbitrage-monitor.api-token';

/**
 * The bearer token of a service run with AUTH_MODE=token: asked once, kept for this browser tab
 * only (sessionStorage, gone when the tab closes), sent on every API call. Never in a URL.
 */
export function readToken(): string | null {
  try {
    return globalThis.sessionStorage.getItem(KEY);
  } catch {
    return null; // a worker has no sessionStorage: its page hands it the token
  }
}

export function saveToken(token: string | null): void {
  if (token) globalThis.sessionStorage.setItem(KEY, token);
  else globalThis.sessionStorage.removeItem(KEY);
}

/**
 * EventSource cannot send the bearer header: a refused stream is opened again with a single-use
 * ticket (60 s) the token buys, and the last event id so it resumes where it stopped.
 */
export async function ticketedUrl(url: string, token: string, lastEventId: string): Promise<string> {
  const stream = new URL(url, globalThis.location.href);
  const res = await fetch(new URL('/v1/auth/stream-ticket', stream).toString(), { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json().catch(() => null)) as { ticket?: string } | null;
  if (!res.ok || typeof body?.ticket !== 'string') throw new Error(messageOf(body, res.status));
  const next = new URL(stream);
  next.searchParams.set('ticket', body.ticket);
  if (lastEventId) next.searchParams.set('lastEventId', lastEventId);
  return next.toString();
}

/** A download link cannot send the bearer header: with a token, fetch the file and save it from memory. */
export async function downloadWithToken(href: string, token: string, fileName: string): Promise<void> {
  const res = await fetch(href, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(messageOf(await res.json().catch(() => null), res.status));
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
