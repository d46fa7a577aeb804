import type { Exchange } from 'ccxt';

/** A venue's allowance of new connections (WindowPacer): resolves with the function to call once the dial has opened or failed. */
export interface DialPacer {
  acquire(): Promise<() => void>;
}

/** What pacing touches of ccxt 4.5.84's websocket client (base/ws/Client.js, WsClient.js). */
interface CcxtDialingClient {
  url: string;
  /** Set when the socket failed, and by `exchange.close()` (ExchangeClosedByUser) before it forgets the client. */
  error?: unknown;
  /** Resolves when the socket opens (onOpen); never rejects. */
  connected: Promise<unknown>;
  createConnection(): void;
  onError(error: unknown): void;
  onClose(event: unknown): void;
}

const paced = new WeakSet<Exchange>();

/**
 * Makes every websocket `exchange` opens wait for `pacer` first, so that a client which dials
 * by itself (ccxt opens a socket inside `watch…` when none is open for the url; binance depth
 * opens one per stream number) shares the venue's connection budget with the feeds that dial
 * through FeedConnection's `beforeDial`. ccxt creates the socket in `createConnection`, which
 * `connect` calls once per client; ccxt itself may call it late (after its reconnect backoff),
 * and until then the client has no socket and queues every subscribe on `connected`, so a
 * deferred call changes nothing else. The slot is released when the socket opens or fails.
 *
 * Apply it after deliverInline: the deferred dial runs the `createConnection` the client had
 * when this wrapped it, and deliverInline's own wrapper must see the socket it creates.
 */
export function paceDials(exchange: Exchange, pacer: DialPacer): void {
  if (paced.has(exchange)) return;
  paced.add(exchange);
  const open = exchange.client.bind(exchange);
  const wrapped = new WeakSet<object>();
  exchange.client = (url: string) => {
    const ws = open(url) as unknown as CcxtDialingClient;
    if (!wrapped.has(ws)) {
      wrapped.add(ws);
      const create = ws.createConnection.bind(ws);
      ws.createConnection = () => {
        pacer.acquire().then(
          (release) => {
            // Closed (or failed) while waiting: ccxt has rejected its futures and forgotten it; no dial.
            if (ws.error !== undefined || exchange.clients[url] !== (ws as unknown)) {
              release();
              return;
            }
            let released = false;
            const settle = (): void => {
              if (released) return;
              released = true;
              release();
            };
            void ws.connected.then(settle);
            // A refused upgrade, a connection timeout and a close while connecting all pass through these.
            const onError = ws.onError.bind(ws);
            const onClose = ws.onClose.bind(ws);
            ws.onError = (error) => {
              settle();
              onError(error);
            };
            ws.onClose = (event) => {
              settle();
              onClose(event);
            };
            try {
              create();
            } catch (err) {
              // ccxt would have thrown this from the watch call; its futures reject instead.
              ws.onError(err instanceof Error ? err : new Error(String(err)));
            }
          },
          (err: unknown) => ws.onError(err instanceof Error ? err : new Error(String(err))),
        );
      };
    }
    return ws as unknown as ReturnType<Exchange['client']>;
  };
}
