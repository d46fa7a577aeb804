import { messageOf } from '../api/client-errors';
import { ticketedUrl } from './token';

export interface StreamState {
  status: 'connecting' | 'open' | 'lost';
  /** Why the stream is lost or refused: the API's message when it answered one. */
  message: string | null;
  /** The Last-Event-ID the browser resumed from after the last reconnect, if the stream numbers events. */
  resumedFrom: string | null;
  reconnects: number;
}

export const INITIAL_STREAM_STATE: StreamState = { status: 'connecting', message: null, resumedFrom: null, reconnects: 0 };
const RETRY_MS = 3000;

/** A refused stream answers JSON before any event: read its message, then let go of the request. */
async function refusalOf(url: string): Promise<{ message: string; status: number }> {
  const abort = new AbortController();
  try {
    const res = await fetch(url, { signal: abort.signal, headers: { accept: 'text/event-stream' } });
    if (res.ok) return { message: 'the stream closed', status: res.status };
    return { message: messageOf(await res.json().catch(() => null), res.status), status: res.status };
  } catch {
    return { message: messageOf(null, 0), status: 0 };
  } finally {
    abort.abort();
  }
}

/**
 * An EventSource that survives: after a drop the browser reconnects by itself and sends the last
 * id as Last-Event-ID (reported once it resumes); a refused or closed stream is opened again
 * after a pause. With a bearer token, a stream refused 401 (AUTH_MODE=token) is opened again at
 * once with a fresh stream ticket. Works in a page and in a worker. Answers the function that stops it.
 */
export function watchStream(
  url: string,
  onData: (data: string, id: string) => void,
  onState: (update: (s: StreamState) => StreamState) => void,
  token: string | null = null,
): () => void {
  let source: EventSource | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let lastId = '';
  let dropped = false;
  let stopped = false;
  let current = url;
  const open = (): void => {
    source = new EventSource(current);
    source.onopen = () => {
      const resumed = dropped && lastId ? lastId : null;
      onState((s) => ({ status: 'open', message: null, resumedFrom: resumed ?? s.resumedFrom, reconnects: s.reconnects + (dropped ? 1 : 0) }));
      dropped = false;
    };
    source.onmessage = (e: MessageEvent<string>) => {
      if (e.lastEventId) lastId = e.lastEventId;
      onData(e.data, e.lastEventId);
    };
    source.addEventListener('market-data-missing', () => onState((s) => ({ ...s, message: 'market data missing: the service has no live quotes right now' })));
    source.onerror = () => {
      dropped = true;
      if (source?.readyState === EventSource.CONNECTING) {
        onState((s) => ({ ...s, status: 'lost', message: 'stream lost, reconnecting…' }));
        return;
      }
      source?.close();
      void refusalOf(current).then(async ({ message, status }) => {
        if (stopped) return;
        if (status === 401 && token) {
          try {
            current = await ticketedUrl(url, token, lastId);
            if (!stopped) open();
            return;
          } catch (error) {
            message = error instanceof Error ? error.message : message;
          }
        }
        onState((s) => ({ ...s, status: 'lost', message: `${message}; retrying in ${RETRY_MS / 1000} s` }));
        retry = setTimeout(open, RETRY_MS);
      });
    };
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(retry);
    source?.close();
  };
}
