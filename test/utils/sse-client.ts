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
  private waiters: { count: number; resolve: () => void }[] = [];

  constructor(url: string, eventTypes: string[] = [], headers: Record<string, string> = {}) {
    this.source = new EventSource(url, {
      fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }),
    });
    const record = (type: string) => (e: { data: string; lastEventId: string }) => {
      this.events.push({ type, data: e.data, id: e.lastEventId, at: Date.now() });
      this.waiters = this.waiters.filter((w) => (this.events.length >= w.count ? (w.resolve(), false) : true));
    };
    this.source.addEventListener('message', record('message'));
    for (const type of eventTypes) this.source.addEventListener(type, record(type));
  }

  /** Resolves once `count` events in total have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs = 5000): Promise<ReceivedEvent[]> {
    if (this.events.length >= count) return Promise.resolve(this.events);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`got ${this.events.length} of ${count} events`)), timeoutMs);
      this.waiters.push({ count, resolve: () => (clearTimeout(timer), resolve(this.events)) });
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
