import { describe, expect, it } from 'vitest';
import { toExchangeUrls } from '../config/exchange-urls.js';
import type { ConnectionEvent, ConnectionState } from './market-data-source.js';
import { EndpointRefusalWatch, endpointLines } from './endpoint-watch.js';

const event = (state: ConnectionState, at: number, reason?: string, market: 'SPOT' | 'FUTURES' = 'FUTURES'): ConnectionEvent =>
  ({ exchange: 'okx', market, connectionId: `okx:${market}:0`, state, at, reason });

describe('EndpointRefusalWatch', () => {
  it('logs one line naming the URL and the variable once every dial has failed for the window', () => {
    const lines: string[] = [];
    const watch = new EndpointRefusalWatch(toExchangeUrls(undefined), (l) => lines.push(l), 120_000);
    watch.onEvent(event('connecting', 0));
    watch.onEvent(event('disconnected', 1_000, 'NetworkError: Unexpected server response: 404'));
    watch.onEvent(event('disconnected', 60_000, 'NetworkError: Unexpected server response: 404'));
    watch.onEvent(event('disconnected', 120_999, 'NetworkError: Unexpected server response: 404'));
    expect(lines).toEqual([]);
    watch.onEvent(event('disconnected', 121_000, 'NetworkError: Unexpected server response: 404'));
    watch.onEvent(event('disconnected', 200_000, 'NetworkError: Unexpected server response: 404'));
    expect(lines).toEqual([
      'okx FUTURES: every websocket dial failed for 120 s at wss://ws.okx.com/ws/v5 (last error: NetworkError: Unexpected server response: 404); ' +
        'if okx has moved this address, set EXCHANGE_URLS=okx.ws=<url>',
    ]);
  });

  it('a connection in between restarts the count; a market type that connects does not hide another that fails', () => {
    const lines: string[] = [];
    const watch = new EndpointRefusalWatch(toExchangeUrls('okx.ws=wss://ws.okx.com:8443/ws/v5'), (l) => lines.push(l), 120_000);
    watch.onEvent(event('disconnected', 0, 'x'));
    watch.onEvent(event('connected', 100_000));
    watch.onEvent(event('disconnected', 110_000, 'x'));
    watch.onEvent(event('disconnected', 200_000, 'x'));
    expect(lines).toEqual([]);
    watch.onEvent(event('disconnected', 0, 'x', 'SPOT'));
    watch.onEvent(event('connected', 150_000, undefined, 'FUTURES'));
    watch.onEvent(event('disconnected', 150_000, 'x', 'SPOT'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('okx SPOT: every websocket dial failed for 150 s at wss://ws.okx.com:8443/ws/v5');
  });

  it('a connected socket that stays silent is named as such, without the address hint', () => {
    const lines: string[] = [];
    const watch = new EndpointRefusalWatch(toExchangeUrls(undefined), (l) => lines.push(l), 120_000);
    watch.onEvent(event('connected', 0));
    // Each re-dial opens, subscribes and hears nothing until the silence timeout closes it.
    for (const at of [30_000, 62_000, 94_000, 126_000]) watch.onEvent(event('disconnected', at, 'silence'));
    expect(lines).toEqual([]);
    watch.onEvent(event('disconnected', 160_000, 'silence'));
    expect(lines).toEqual([
      'okx FUTURES: the venue sent nothing for 130 s on a connected websocket at wss://ws.okx.com/ws/v5 ' +
        '(5 connection(s) opened, each closed after MARKET_SILENCE_TIMEOUT_MS without a quote); the address answers',
    ]);
  });

  it('failed dials among silent sockets count both and keep the address hint', () => {
    const lines: string[] = [];
    const watch = new EndpointRefusalWatch(toExchangeUrls(undefined), (l) => lines.push(l), 120_000);
    watch.onEvent(event('disconnected', 0, 'silence'));
    watch.onEvent(event('disconnected', 60_000, 'NetworkError: connect ECONNREFUSED'));
    watch.onEvent(event('disconnected', 120_000, 'silence'));
    expect(lines).toEqual([
      'okx FUTURES: no websocket delivered for 120 s: 1 dial(s) failed and 2 connected but sent nothing at wss://ws.okx.com/ws/v5 ' +
        '(last error: NetworkError: connect ECONNREFUSED); if okx has moved this address, set EXCHANGE_URLS=okx.ws=<url>',
    ]);
  });

  it('a shutdown is not a refusal', () => {
    const lines: string[] = [];
    const watch = new EndpointRefusalWatch({}, (l) => lines.push(l), 10);
    watch.onEvent(event('disconnected', 0, 'shutdown'));
    watch.onEvent(event('disconnected', 100, 'shutdown'));
    expect(lines).toEqual([]);
  });
});

describe('endpointLines', () => {
  it('names every URL the service uses on each venue, overrides applied', () => {
    expect(endpointLines(['okx', 'gate'], toExchangeUrls('gate.spot=wss://g.example/ws/v4/'), null)).toEqual([
      'okx endpoints: okx.ws=wss://ws.okx.com/ws/v5, okx.rest=https://www.okx.com; EXCHANGE_URLS replaces any of them',
      'gate endpoints: gate.spot=wss://g.example/ws/v4/, gate.swap.usdt=wss://fx-ws.gateio.ws/v4/ws/usdt, gate.public.spot=https://api.gateio.ws/api/v4, ' +
        'gate.public.futures=https://api.gateio.ws/api/v4; EXCHANGE_URLS replaces any of them',
    ]);
  });
});
