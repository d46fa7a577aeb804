import type { Exchange } from 'ccxt';
import { describe, expect, it } from 'vitest';
import { toFeedClient, topOfBook } from './feed-client.js';

/** The parts of ccxt 4.5.84's websocket client the feed patches (base/ws/WsClient.js). */
class FakeWsClient {
  error?: { name: string };
  closes = 0;
  terminations = 0;
  connection = {
    removeAllListeners: () => undefined,
    on: () => undefined,
    terminate: () => void this.terminations++,
  };
  createConnection(): void {}
  deliverLoop(): Promise<void> {
    return Promise.resolve();
  }
  onMessage(): void {}
  close(): string {
    this.closes++;
    return 'disconnected';
  }
}

function fakeExchange(): { exchange: Exchange; socket: FakeWsClient } {
  const socket = new FakeWsClient();
  const exchange = {
    clients: {} as Record<string, FakeWsClient>,
    bidsasks: {},
    client(url: string) {
      this.clients[url] = socket;
      return socket;
    },
  };
  return { exchange: exchange as unknown as Exchange, socket };
}

describe('toFeedClient', () => {
  it('terminate() destroys every socket at once, without a close handshake', () => {
    const { exchange, socket } = fakeExchange();
    const feed = toFeedClient(exchange);
    exchange.client('ws://venue/ws');
    feed.terminate();
    expect(socket.terminations).toBe(1);
    expect(socket.closes).toBe(0);
  });

  it('a socket ccxt closes for a late pong is destroyed at once; a close by the user keeps its handshake', () => {
    const { exchange, socket } = fakeExchange();
    toFeedClient(exchange);
    const ws = exchange.client('ws://venue/ws') as unknown as FakeWsClient;
    ws.error = { name: 'ExchangeClosedByUser' };
    expect(ws.close()).toBe('disconnected');
    expect(socket.terminations).toBe(0);
    // ccxt's ping interval: onError(RequestTimeout '...ping-pong keepalive missing on time'), then close().
    ws.error = { name: 'RequestTimeout' };
    expect(ws.close()).toBe('disconnected');
    expect(socket.closes).toBe(2);
    expect(socket.terminations).toBe(1);
  });
});

describe('topOfBook', () => {
  it('reads the best bid and ask of a ccxt book with their sizes; an empty side is missing', () => {
    expect(topOfBook({ symbol: 'BTC/USDC:USDC', timestamp: 7, bids: [[97_001.1, 0.5], [97_001, 1]], asks: [[97_001.3, 0.25]] }))
      .toEqual({ symbol: 'BTC/USDC:USDC', bid: 97_001.1, bidVolume: 0.5, ask: 97_001.3, askVolume: 0.25, timestamp: 7 });
    expect(topOfBook({ symbol: 'X', bids: [], asks: [[1, 2]] })).toMatchObject({ bid: undefined, ask: 1 });
  });
});
