import { EventEmitter } from 'node:events';
import type { WebSocket } from 'ws';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExchangeName, Market } from '../market-model/exchanges.js';
import { ConnectionGuard } from './connection-guard.js';
import { StrictMode } from './strict-mode.js';

/** The parts of a `ws` socket the guard uses, recording what it does to the socket. */
class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  sent: string[] = [];
  closedWith: [number, string] | null = null;
  terminated = false;
  send(text: string): void {
    this.sent.push(text);
  }
  close(code: number, reason: string): void {
    this.closedWith = [code, reason];
  }
  terminate(): void {
    this.terminated = true;
  }
  ping(): void {}
}

describe('ConnectionGuard: venue rules the strict simulator plays', () => {
  let strict: StrictMode;
  let socket: FakeSocket;
  const guards: ConnectionGuard[] = [];
  const guard = (exchange: ExchangeName, market: Market = 'SPOT', subscriptions = 0): ConnectionGuard => {
    const g = new ConnectionGuard(strict, exchange, market, socket as unknown as WebSocket, () => subscriptions, () => Date.now());
    guards.push(g);
    return g;
  };
  const kinds = (exchange: ExchangeName) => strict.report().byExchange[exchange] ?? {};

  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
    strict = new StrictMode({});
    socket = new FakeSocket();
  });
  afterEach(() => {
    for (const g of guards.splice(0)) g.dispose();
    vi.useRealTimers();
  });

  it('okx drops a connection that has not subscribed within 30 s, pings or not', () => {
    const g = guard('okx');
    for (let t = 0; t < 2; t++) {
      vi.advanceTimersByTime(10_000);
      expect(g.admit('ping')).toBe(true);
    }
    vi.advanceTimersByTime(9_999);
    expect(socket.terminated).toBe(false);
    vi.advanceTimersByTime(1);
    expect(socket.terminated).toBe(true);
    expect(kinds('okx')).toEqual({ 'no-subscription': 1 });
  });

  it('okx keeps a connection that subscribed within 30 s', () => {
    const g = guard('okx');
    vi.advanceTimersByTime(10_000);
    expect(g.admit(JSON.stringify({ op: 'subscribe', args: [{ channel: 'bbo-tbt', instId: 'BTC-USDT' }] }))).toBe(true);
    for (let t = 0; t < 4; t++) {
      g.pushed();
      vi.advanceTimersByTime(10_000);
    }
    expect(socket.terminated).toBe(false);
    expect(kinds('okx')).toEqual({});
  });

  it('okx refuses a subscribe frame over 64 KB with an error and keeps the connection', () => {
    const g = guard('okx');
    const arg = { channel: 'bbo-tbt', instId: 'X'.repeat(100) };
    const big = JSON.stringify({ op: 'subscribe', args: Array.from({ length: 600 }, () => arg) });
    expect(Buffer.byteLength(big)).toBeGreaterThan(65_536);
    expect(g.admit(big)).toBe(false);
    expect(JSON.parse(socket.sent[0] ?? '{}')).toMatchObject({ event: 'error', code: '60012' });
    expect(socket.closedWith).toBeNull();
    const small = JSON.stringify({ op: 'subscribe', args: Array.from({ length: 300 }, () => arg) });
    expect(Buffer.byteLength(small)).toBeLessThan(65_536);
    expect(g.admit(small)).toBe(true);
    expect(kinds('okx')).toEqual({ 'frame-size': 1 });
  });

  it('bybit spot refuses args longer than 21,000 characters together; linear has no args cap', () => {
    // 10 args (spot's count cap) of 2,101 characters: 21,010 in all.
    const args = Array.from({ length: 10 }, (_, i) => `orderbook.1.${String(i).padEnd(2_089, 'X')}`);
    expect(args.join('').length).toBe(21_010);
    expect(guard('bybit', 'SPOT').admit(JSON.stringify({ op: 'subscribe', args }))).toBe(false);
    expect(JSON.parse(socket.sent[0] ?? '{}')).toMatchObject({ success: false, ret_msg: 'error:args length >21000' });
    expect(guard('bybit', 'SPOT').admit(JSON.stringify({ op: 'subscribe', args: args.map((a) => a.slice(0, 2_100)) }))).toBe(true);
    const many = Array.from({ length: 500 }, (_, i) => `orderbook.1.${String(i).padEnd(60, 'Y')}`);
    expect(guard('bybit', 'FUTURES').admit(JSON.stringify({ op: 'subscribe', args: many }))).toBe(true);
    expect(kinds('bybit')).toEqual({ 'args-chars': 1 });
  });

  it('bitget\'s idle timer counts only the text ping: protocol pings and data do not keep the connection', () => {
    const g = guard('bitget');
    vi.advanceTimersByTime(60_000);
    expect(g.admit('ping')).toBe(true);
    // Protocol pings and pushed data for the next 2 minutes: not a `ping`.
    for (let i = 0; i < 12; i++) {
      socket.emit('ping');
      g.pushed();
      vi.advanceTimersByTime(10_000);
    }
    expect(socket.terminated).toBe(true);
    expect(kinds('bitget')).toEqual({ idle: 1 });
  });

  it('bitget keeps a connection that sends the text ping every 30 s', () => {
    const g = guard('bitget');
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(30_000);
      expect(g.admit('ping')).toBe(true);
    }
    expect(socket.terminated).toBe(false);
  });

  it('gate has no connection cap: the 101st and 1,000th connections are accepted', () => {
    for (let open = 0; open < 1_000; open++) expect(strict.admitConnection('gate', open)).toEqual({ ok: true });
    expect(kinds('gate')).toEqual({});
  });
});
