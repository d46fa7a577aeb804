import http from 'node:http';
import { EventSource } from 'eventsource';

export interface ReceivedEvent {
  type: string;
  data: string;
  id: string;
  at: number;
}

/** A real EventSource client that records what it receives. */
export class SseTestClient {
  readonly events: ReceivedEvent[] = [];
  readonly source: EventSource;
  /**
   * Resolves when the response headers have arrived. The hub writes them and subscribes the
   * client to its stream in one step, so from here on the client receives every new event.
   */
  readonly opened: Promise<void>;
  private waiters: { ok: (events: ReceivedEvent[]) => boolean; resolve: () => void }[] = [];

  constructor(url: string, eventTypes: string[] = [], headers: Record<string, string> = {}) {
    this.source = new EventSource(url, {
      fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }),
    });
    this.opened = new Promise((resolve) => this.source.addEventListener('open', () => resolve(), { once: true }));
    const record = (type: string) => (e: { data: string; lastEventId: string }) => {
      this.events.push({ type, data: e.data, id: e.lastEventId, at: Date.now() });
      this.waiters = this.waiters.filter((w) => (w.ok(this.events) ? (w.resolve(), false) : true));
    };
    this.source.addEventListener('message', record('message'));
    for (const type of eventTypes) this.source.addEventListener(type, record(type));
  }

  /** Resolves once `count` events in total have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs = 5000): Promise<ReceivedEvent[]> {
    return this.waitUntil((events) => events.length >= count, timeoutMs, `${count} events`);
  }

  /** Resolves once an event satisfying `match` has arrived (checked on every event received so far). */
  waitForEvent(match: (event: ReceivedEvent) => boolean, timeoutMs = 5000, what = 'the expected event'): Promise<ReceivedEvent[]> {
    return this.waitUntil((events) => events.some(match), timeoutMs, what);
  }

  /** Resolves once the stream is open (rejects after `timeoutMs`). */
  waitOpen(timeoutMs = 5000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('stream not opened in time')), timeoutMs)));
    return Promise.race([this.opened, late]).finally(() => clearTimeout(timer));
  }

  /** Resolves, on an event, once `ok` holds for the events received so far; rejects after `timeoutMs` naming `what`. */
  waitUntil(ok: (events: ReceivedEvent[]) => boolean, timeoutMs: number, what: string): Promise<ReceivedEvent[]> {
    if (ok(this.events)) return Promise.resolve(this.events);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`waited ${timeoutMs} ms for ${what}; got ${this.events.length} events`)), timeoutMs);
      this.waiters.push({ ok, resolve: () => (clearTimeout(timer), resolve(this.events)) });
    });
  }

  json<T>(index: number): T {
    return JSON.parse(this.events[index]?.data ?? 'null') as T;
  }

  close(): void {
    this.source.close();
  }
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  request: http.ClientRequest;
  response: http.IncomingMessage;
}

/** Opens a stream with plain http and collects the first `ms` milliseconds (or the whole body). */
export function rawGet(url: string, ms: number, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { Accept: 'text/event-stream', ...headers } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      const finish = () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body, request, response });
      const timer = setTimeout(() => {
        finish();
        request.destroy();
      }, ms);
      response.on('end', () => {
        clearTimeout(timer);
        finish();
      });
    });
    request.on('error', (err) => (err.message === 'socket hang up' ? undefined : reject(err)));
  });
}

/** A client that connects and then never reads: its socket buffers fill up on the server. */
export function stalledClient(url: string): Promise<http.ClientRequest> {
  return new Promise((resolve) => {
    const request = http.get(url, { headers: { Accept: 'text/event-stream' } }, (response) => {
      response.pause();
      response.socket.pause();
      resolve(request);
    });
    request.on('error', () => undefined);
  });
}
