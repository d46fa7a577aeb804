import type { WebSocket } from 'ws';
import type { ExchangeName, Market } from '../market-model/exchanges.js';
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
  /** The text `ping` alone (an idle rule of `text-ping` counts nothing else). */
  private lastTextPingAt: number;
  private subscribed = false;
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
    this.lastTextPingAt = now();
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
    if (limits.subscribeWithinMs !== null) {
      const within = strict.scaled(limits.subscribeWithinMs);
      const timer = setTimeout(() => this.checkSubscribed(within), within);
      timer.unref();
      this.timers.push(timer);
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
      if (text === 'ping') this.lastTextPingAt = this.lastClientPingAt;
      return true;
    }
    const request = subscribeRequestOf(text);
    if (!request) return true;
    const maxBytes = this.strict.limits(this.exchange).maxFrameBytes;
    const bytes = Buffer.byteLength(text);
    if (maxBytes !== null && bytes > maxBytes) return this.refuse(request.raw, 'frame-size', `request too large: ${bytes} bytes, limit ${maxBytes}`, `a ${bytes}-byte frame, limit ${maxBytes}`);
    if (request.unsubscribe) return this.strict.limits(this.exchange).unsubscribesCountPerHour ? this.admitHourly(request.raw) : true;
    if (!this.admitSubscribe(request.raw, request.args, request.argsChars)) return false;
    this.subscribed = true;
    return true;
  }

  /** Data was pushed on this connection (an idle rule of `ping-or-data` counts it). */
  pushed(): void {
    this.lastPushAt = this.now();
  }

  dispose(): void {
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    this.timers.length = 0;
  }

  private admitSubscribe(raw: Record<string, unknown>, args: number, argsChars: number): boolean {
    const limits = this.strict.limits(this.exchange);
    const perRequest = limits.argsPerRequest[this.market];
    if (perRequest !== null && args > perRequest) return this.refuse(raw, 'args-per-request', `args size >${perRequest}`, `${args} args in one subscribe, limit ${perRequest}`);
    const chars = limits.argsCharsPerRequest[this.market];
    if (chars !== null && argsChars > chars) return this.refuse(raw, 'args-chars', `args length >${chars}`, `${argsChars} characters of args in one subscribe, limit ${chars}`);
    const perConnection = limits.subscriptionsPerConnection[this.market];
    const total = this.subscriptionCount() + args;
    if (total > perConnection) return this.refuse(raw, 'subscriptions-per-connection', `subscriptions >${perConnection}`, `${total} subscriptions on one connection, limit ${perConnection}`);
    return this.admitHourly(raw);
  }

  /** The venue's subscribe requests per hour on one connection (unsubscribes too where the venue counts them). */
  private admitHourly(raw: Record<string, unknown>): boolean {
    const perHour = this.strict.limits(this.exchange).subscribesPerHour;
    if (perHour === null) return true;
    const now = this.now();
    const window = this.strict.scaled(HOUR_MS);
    while (this.subscribesAt.length > 0 && now - (this.subscribesAt[0] ?? 0) >= window) this.subscribesAt.shift();
    if (this.subscribesAt.length >= perHour) return this.refuse(raw, 'subscribes-per-hour', 'Requests too frequent.', `${perHour + 1} subscribe requests within ${window} ms, limit ${perHour}`);
    this.subscribesAt.push(now);
    return true;
  }

  private refuse(
    raw: Record<string, unknown>,
    kind: 'args-per-request' | 'args-chars' | 'frame-size' | 'subscriptions-per-connection' | 'subscribes-per-hour',
    limit: string,
    detail: string,
  ): false {
    this.strict.record(this.exchange, kind, detail);
    const rule = this.strict.limits(this.exchange).overLimit;
    if (kind === 'frame-size') {
      // A venue with a frame cap refuses the request and keeps the connection.
      const refusal = this.strict.limits(this.exchange).frameRefusal;
      if (refusal && this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(refusal(limit)));
    } else if (rule.kind === 'close') {
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

  /** A connection that has not subscribed within the venue's time is dropped. */
  private checkSubscribed(withinMs: number): void {
    if (this.subscribed || this.closed) return;
    this.strict.record(this.exchange, 'no-subscription', `no subscription within ${withinMs} ms of connecting`);
    this.terminate();
  }

  private checkIdle(timeoutMs: number, resetBy: 'ping' | 'text-ping' | 'ping-or-data'): void {
    const now = this.now();
    const last = resetBy === 'ping' ? this.lastClientPingAt : resetBy === 'text-ping' ? this.lastTextPingAt : Math.max(this.lastClientPingAt, this.lastPushAt);
    if (now - last < timeoutMs) return;
    this.strict.record(this.exchange, 'idle', resetBy !== 'ping-or-data'
      ? `no client ${resetBy === 'text-ping' ? 'text `ping`' : 'ping'} for ${now - last} ms, limit ${timeoutMs} ms`
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
