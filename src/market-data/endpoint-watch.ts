import { type ExchangeUrlOverrides, endpointsInUse, FEED_URL_KEYS } from '../config/exchange-urls.js';
import type { ExchangeName, Market } from '../market-model/exchanges.js';
import { type ConnectionEvent, SILENCE_REASON } from './market-data-source.js';

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
 * Watches each venue's websocket (per market type: the URL differs) for a run of sessions that
 * never delivered, with no connection in between: once it has lasted `windowMs`, logs one line
 * saying which it was. Dials that fail name the URL and the EXCHANGE_URLS key to change (a venue
 * that moved its host or port refuses every dial while its REST may still answer); sockets that
 * open and then stay silent until the silence timeout closes them say so without that hint, as the
 * address answers. Said again only after a connection succeeded and failures resumed.
 */
export class EndpointRefusalWatch {
  private readonly runs = new Map<string, FailureRun>();
  private readonly reported = new Set<string>();

  constructor(
    private readonly urls: ExchangeUrlOverrides,
    private readonly log: (line: string) => void,
    private readonly windowMs = ENDPOINT_REFUSED_MS,
  ) {}

  onEvent(event: ConnectionEvent): void {
    const key = `${event.exchange}|${event.market}`;
    if (event.state === 'connected') {
      this.runs.delete(key);
      this.reported.delete(key);
      return;
    }
    if (event.state !== 'disconnected' || event.reason === 'shutdown') return;
    const run = this.runs.get(key) ?? { since: event.at, failedDials: 0, silentSockets: 0, lastError: '' };
    this.runs.set(key, run);
    if (event.reason === SILENCE_REASON) run.silentSockets += 1;
    else [run.failedDials, run.lastError] = [run.failedDials + 1, event.reason ?? 'unknown'];
    if (this.reported.has(key) || event.at - run.since < this.windowMs) return;
    this.reported.add(key);
    this.log(this.line(event.exchange, event.market, event.at - run.since, run));
  }

  private line(exchange: ExchangeName, market: Market, forMs: number, run: FailureRun): string {
    const urlKey = FEED_URL_KEYS[exchange][market];
    const url = endpointsInUse(exchange, this.urls)[urlKey] ?? '';
    const seconds = Math.round(forMs / 1000);
    if (run.failedDials === 0) {
      return (
        `${exchange} ${market}: the venue sent nothing for ${seconds} s on a connected websocket at ${url} ` +
        `(${run.silentSockets} connection(s) opened, each closed after MARKET_SILENCE_TIMEOUT_MS without a quote); the address answers`
      );
    }
    const what = run.silentSockets === 0
      ? `every websocket dial failed for ${seconds} s`
      : `no websocket delivered for ${seconds} s: ${run.failedDials} dial(s) failed and ${run.silentSockets} connected but sent nothing`;
    return (
      `${exchange} ${market}: ${what} at ${url} ` +
      `(last error: ${run.lastError.slice(0, MAX_REASON_CHARS)}); if ${exchange} has moved this address, set EXCHANGE_URLS=${exchange}.${urlKey}=<url>`
    );
  }
}

/** Sessions since the last connection that delivered: dials that failed, and sockets closed for silence. */
interface FailureRun {
  since: number;
  failedDials: number;
  silentSockets: number;
  lastError: string;
}
