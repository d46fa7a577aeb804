import { type ExchangeUrlOverrides, endpointsInUse, FEED_URL_KEYS } from '../config/exchange-urls.js';
import type { ExchangeName, Market } from '../market-model/exchanges.js';
import type { ConnectionEvent } from './market-data-source.js';

/** How long every dial of a venue's websocket must fail before the log says so. */
export const ENDPOINT_REFUSED_MS = 120_000;
const MAX_REASON_CHARS = 200;

/** One line per venue: the URLs the service dials and calls there, and the variable that replaces them. */
export function endpointLines(exchanges: readonly ExchangeName[], urls: ExchangeUrlOverrides, simulatorUrl: string | null): string[] {
  const via = simulatorUrl === null ? '' : ` (rewritten to the simulator at ${simulatorUrl})`;
  return exchanges.map((exchange) => {
    const list = Object.entries(endpointsInUse(exchange, urls)).map(([key, url]) => `${exchange}.${key}=${url}`);
    return `${exchange} endpoints: ${list.join(', ')}${via}; EXCHANGE_URLS replaces any of them`;
  });
}

/**
 * Watches each venue's websocket (per market type: the URL differs) for a run of failed dials
 * with no connection in between: once it has lasted `windowMs`, logs one line naming the URL and
 * the EXCHANGE_URLS key to change (a venue that moved its host or port refuses every dial while
 * its REST may still answer). Said again only after a connection succeeded and failures resumed.
 */
export class EndpointRefusalWatch {
  private readonly failingSince = new Map<string, number>();
  private readonly reported = new Set<string>();

  constructor(
    private readonly urls: ExchangeUrlOverrides,
    private readonly log: (line: string) => void,
    private readonly windowMs = ENDPOINT_REFUSED_MS,
  ) {}

  onEvent(event: ConnectionEvent): void {
    const key = `${event.exchange}|${event.market}`;
    if (event.state === 'connected') {
      this.failingSince.delete(key);
      this.reported.delete(key);
      return;
    }
    if (event.state !== 'disconnected' || event.reason === 'shutdown') return;
    const since = this.failingSince.get(key) ?? event.at;
    this.failingSince.set(key, since);
    if (this.reported.has(key) || event.at - since < this.windowMs) return;
    this.reported.add(key);
    this.log(this.line(event.exchange, event.market, event.at - since, event.reason ?? 'unknown'));
  }

  private line(exchange: ExchangeName, market: Market, forMs: number, reason: string): string {
    const urlKey = FEED_URL_KEYS[exchange][market];
    const url = endpointsInUse(exchange, this.urls)[urlKey] ?? '';
    return (
      `${exchange} ${market}: every websocket dial failed for ${Math.round(forMs / 1000)} s at ${url} ` +
      `(last error: ${reason.slice(0, MAX_REASON_CHARS)}); if ${exchange} has moved this address, set EXCHANGE_URLS=${exchange}.${urlKey}=<url>`
    );
  }
}
