import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
  status: number;
}

/** How the receiver answers its n-th request (0-based); the last entry repeats. */
export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * A real local HTTP server standing in for a webhook endpoint, Telegram's Bot API or a Discord
 * webhook: it records every request and answers from a script.
 */
export interface Receiver {
  url: string;
  received: Received[];
  /** TCP connections it accepted, requests or not. */
  connections: number;
  /** Requests it answered with a 2xx. */
  accepted(): Received[];
  answers: Answer[];
  close(): Promise<void>;
}

export async function startReceiver(answers: Answer[] = [{ status: 200 }]): Promise<Receiver> {
  const received: Received[] = [];
  const receiver: Receiver = {
    url: '',
    received,
    connections: 0,
    answers,
    accepted: () => received.filter((r) => r.status >= 200 && r.status < 300),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const answer = receiver.answers[Math.min(received.length, receiver.answers.length - 1)] ?? { status: 200 };
      received.push({ path: req.url ?? '', headers: req.headers, body, at: Date.now(), status: answer.status });
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body ?? '{"ok":true}');
    });
  });
  server.on('connection', () => (receiver.connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
