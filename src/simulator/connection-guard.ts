import type { WebSocket } from 'ws';
import type { ExchangeName, Market } from '../market-data/exchanges.js';
import { isClientPing, subscribeRequestOf, type StrictMode } from './strict-mode.js';

const HOUR_MS = 3_600_000;

/**
 * One connection's side of strict mode: counts what the client sends, sends the venue's server
 * pings, and closes the connection where the venue would (message rate, missed pong, idle,
 * forced lifetime). Settings are read when the connection opens.
 */
export class ConnectionGuard {
  private readonly sentAt: number[] = [];
  private readonly subscribesAt: number[] = [];
  private lastClientPingAt: number;
  private lastPushAt: number;
  private pingSentAt: number | null = null;
  private readonly timers: NodeJS.Timeout[] = [];
  private closed = false;

  constructor(
    private readonly strict: StrictMode,
    private readonly exchange: ExchangeName,
    private readonly market: Market,
    private readonly socket: WebSocket,
    private readonly subscriptionCount: () => number,
    private readonly now: () => number = Date.now,
  ) {
    this.lastClientPingAt = now();
    this.lastPushAt = now();
    if (!strict.settings.enabled) return;
    const limits = strict.limits(exchange);
    const ping = limits.serverPing[market];
    if (ping) this.every(strict.scaled(ping.intervalMs), () => this.serverPing(strict.scaled(ping.timeoutMs)));
    const idle = limits.idle;
    if (idle) {
      const timeout = strict.scaled(idle.timeoutMs);
      this.every(Math.max(5, Math.floor(timeout / 4)), () => this.checkIdle(timeout, idle.resetBy));
    }
    const lifetime = strict.lifetime(exchange);
    if (lifetime !== null) {
      const timer = setTimeout(() => this.close(1000, 'connection lifetime reached'), lifetime);
      timer.unref();
      this.timers.push(timer);
    }
    socket.on('pong', () => {
      this.pingSentAt = null;
      this.countMessage();
    });
    socket.on('ping', () => {
      this.lastClientPingAt = this.now();
      this.countMessage();
    });
  }

  /**
   * A text frame from the client. Answers false when the frame must not reach the protocol:
   * the connection went over a limit and was closed, or the subscribe was refused.
   */
  admit(text: string): boolean {
    if (!this.strict.settings.enabled) return true;
    if (!this.countMessage()) return false;
    if (isClientPing(text)) {
      this.lastClientPingAt = this.now();
      return true;
    }
    const request = subscribeRequestOf(text);
    return request ? this.admitSubscribe(request.raw, request.args) : true;
  }

  /** Data was pushed on this connection (okx and bybit count it against their idle rule). */
  pushed(): void {
    this.lastPushAt = this.now();
  }

  dispose(): void {
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    this.timers.length = 0;
  }

  private admitSubscribe(raw: Record<string, unknown>, args: number): boolean {
    const limits = this.strict.limits(this.exchange);
    const perRequest = limits.argsPerRequest[this.market];
    if (perRequest !== null && args > perRequest) return this.refuse(raw, 'args-per-request', `args size >${perRequest}`, `${args} args in one subscribe, limit ${perRequest}`);
    const perConnection = limits.subscriptionsPerConnection[this.market];
    const total = this.subscriptionCount() + args;
    if (total > perConnection) return this.refuse(raw, 'subscriptions-per-connection', `subscriptions >${perConnection}`, `${total} subscriptions on one connection, limit ${perConnection}`);
    const perHour = limits.subscribesPerHour;
    if (perHour !== null) {
      const now = this.now();
      const window = this.strict.scaled(HOUR_MS);
      while (this.subscribesAt.length > 0 && now - (this.subscribesAt[0] ?? 0) >= window) this.subscribesAt.shift();
      if (this.subscribesAt.length >= perHour) return this.refuse(raw, 'subscribes-per-hour', 'Requests too frequent.', `${perHour + 1} subscribes within ${window} ms, limit ${perHour}`);
      this.subscribesAt.push(now);
    }
    return true;
  }

  private refuse(raw: Record<string, unknown>, kind: 'args-per-request' | 'subscriptions-per-connection' | 'subscribes-per-hour', limit: string, detail: string): false {
    this.strict.record(this.exchange, kind, detail);
    const rule = this.strict.limits(this.exchange).overLimit;
    if (rule.kind === 'close') {
      this.close(rule.code, rule.reason);
    } else {
      if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(rule.payload(limit, raw)));
      if (rule.close) this.close(1008, limit);
    }
    return false;
  }

  /** Counts one client frame; false (and closed) past the venue's messages per second. */
  private countMessage(): boolean {
    const limit = this.strict.limits(this.exchange).messagesPerSecond[this.market];
    if (limit === null || this.closed) return !this.closed;
    const now = this.now();
    const window = this.strict.scaled(1_000);
    while (this.sentAt.length > 0 && now - (this.sentAt[0] ?? 0) >= window) this.sentAt.shift();
    this.sentAt.push(now);
    if (this.sentAt.length <= limit) return true;
    this.strict.record(this.exchange, 'messages-per-second', `${this.sentAt.length} messages within ${window} ms, limit ${limit}`);
    this.close(1008, 'Too many requests');
    return false;
  }

  private serverPing(timeoutMs: number): void {
    const now = this.now();
    if (this.pingSentAt !== null && now - this.pingSentAt >= timeoutMs) {
      this.strict.record(this.exchange, 'missed-pong', `no pong ${now - this.pingSentAt} ms after a ping, limit ${timeoutMs} ms`);
      this.terminate();
      return;
    }
    if (this.socket.readyState !== this.socket.OPEN) return;
    this.socket.ping();
    this.pingSentAt ??= now;
  }

  private checkIdle(timeoutMs: number, resetBy: 'ping' | 'ping-or-data'): void {
    const now = this.now();
    const last = resetBy === 'ping' ? this.lastClientPingAt : Math.max(this.lastClientPingAt, this.lastPushAt);
    if (now - last < timeoutMs) return;
    this.strict.record(this.exchange, 'idle', resetBy === 'ping'
      ? `no client ping for ${now - last} ms, limit ${timeoutMs} ms`
      : `no client ping and no data for ${now - last} ms, limit ${timeoutMs} ms`);
    this.terminate();
  }

  private every(ms: number, run: () => void): void {
    const timer = setInterval(run, ms);
    timer.unref();
    this.timers.push(timer);
  }

  private close(code: number, reason: string): void {
    if (this.closed) return;
    this.dispose();
    this.socket.close(code, reason);
    // A client that does not complete the closing handshake is cut off, as a venue would.
    setTimeout(() => this.socket.terminate(), 1_000).unref();
  }

  private terminate(): void {
    if (this.closed) return;
    this.dispose();
    this.socket.terminate();
  }
}
