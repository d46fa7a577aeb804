import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { EXCHANGE_NAMES, type ExchangeName, type Market } from '../market-model/exchanges.js';
import type { MarketState, SimQuote } from './market-state.js';
import { type FrameTemplate, type LoadTarget, templatesOf } from './load-generator.js';
import { ConnectionGuard } from './connection-guard.js';
import { marketOfConnection, StrictMode } from './strict-mode.js';
import { simVenueOf } from './venues/index.js';
import type { ExchangeProtocol, Subscription, WsSession } from './venues/protocol.js';

/** How often every subscribed market is re-sent, as live exchanges do even without changes. */
export const RESEND_INTERVAL_MS = 1_000;
/** The re-sends are spread over the interval in this many slices, not sent in one burst. */
const RESEND_SLICES = 10;

interface Connection {
  id: number;
  protocol: ExchangeProtocol;
  socket: WebSocket;
  session: WsSession;
  subscriptions: Map<string, Subscription>;
  openedAt: number;
  guard: ConnectionGuard;
}

export interface ConnectionState {
  id: number;
  path: string;
  openedAt: string;
  subscriptions: number;
}

export interface ExchangeFaults {
  /** Pings answered, but no quote is pushed. */
  silent: boolean;
  /** Nothing is answered: neither pings nor subscriptions, and no quote is pushed. */
  stalled: boolean;
}

const subKey = (s: Subscription): string => (s.depth === undefined ? `${s.market}|${s.ticker}` : `${s.market}|${s.ticker}|${s.depth}`);
const bookKey = (exchange: ExchangeName, s: Pick<Subscription, 'market' | 'ticker'>): string => `${exchange}|${s.market}|${s.ticker}`;

/** A depth subscription of a market: which channel, on which connections. */
export interface DepthSubscription {
  market: Market;
  ticker: string;
  channel: string;
  connections: number;
}

/** Websocket side of the simulator: connections, subscriptions, pushes and fault injection. */
export class WsHub {
  private readonly server = new WebSocketServer({ noServer: true, autoPong: false });
  private readonly connections = new Set<Connection>();
  private readonly faults = new Map<ExchangeName, ExchangeFaults>(
    EXCHANGE_NAMES.map((name) => [name, { silent: false, stalled: false }]),
  );
  private readonly resendTimer: NodeJS.Timeout;
  private readonly unlisten: () => void;
  private readonly templates = new Map<string, [FrameTemplate, FrameTemplate]>();
  /** Depth subscribers of each book (`exchange|market|ticker`): connection → its subscriptions. */
  private readonly depthIndex = new Map<string, Map<Connection, Subscription[]>>();
  private nextSlice = 0;
  private nextId = 1;
  /** Quote frames pushed to clients since start (load mode, walk, re-sends, control API). */
  framesSent = 0;

  constructor(private readonly state: MarketState, readonly strict: StrictMode = new StrictMode({ enabled: false })) {
    this.unlisten = state.onQuote((quote) => this.broadcast(quote));
    this.resendTimer = setInterval(() => this.resendSlice(), RESEND_INTERVAL_MS / RESEND_SLICES);
    this.resendTimer.unref();
  }

  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, protocol: ExchangeProtocol, host: string, path: string): void {
    const open = [...this.connections].filter((c) => c.protocol.name === protocol.name).length;
    const admitted = this.strict.admitConnection(protocol.name, open);
    if (!admitted.ok) {
      // Refused before the handshake, as a venue's gateway answers (ccxt: the dial fails). A
      // client already gone makes the write fail (EPIPE); unheard, that error ended the simulator.
      socket.once('error', () => socket.destroy());
      socket.end(`HTTP/1.1 ${admitted.status} ${admitted.reason}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      return;
    }
    this.server.handleUpgrade(req, socket, head, (ws) => this.accept(ws, protocol, host, path));
  }

  /** Closes an exchange's connections as a venue going into maintenance does (1001, going away). */
  closeForMaintenance(exchange: ExchangeName): number {
    let closed = 0;
    for (const c of this.connections) {
      if (c.protocol.name !== exchange) continue;
      c.guard.dispose();
      c.socket.close(1001, 'service maintenance');
      setTimeout(() => c.socket.terminate(), 1_000).unref();
      this.forget(c);
      closed++;
    }
    return closed;
  }

  /**
   * A service upgrade: every open connection of the exchange gets the venue's notice (a
   * "reconnect"), and is closed `noticeMs` later; connections opened meanwhile are on the
   * upgraded service and stay. Answers how many were notified (none where the venue sends no notice).
   */
  announceUpgrade(exchange: ExchangeName, noticeMs: number): number {
    const upgrade = simVenueOf(exchange).upgrade;
    if (!upgrade) return 0;
    const notified = [...this.connections].filter((c) => c.protocol.name === exchange);
    const notice = JSON.stringify(upgrade.frame);
    for (const c of notified) this.send(c.socket, notice);
    setTimeout(() => {
      for (const c of notified) {
        if (!this.connections.has(c)) continue;
        c.guard.dispose();
        c.socket.close(1012, 'service upgrade');
        setTimeout(() => c.socket.terminate(), 1_000).unref();
        this.forget(c);
      }
    }, noticeMs).unref();
    return notified.length;
  }

  /** Closes matching connections abnormally (code 1006 on the client, as a network drop). */
  drop(exchange?: ExchangeName): number {
    let dropped = 0;
    for (const c of this.connections) {
      if (exchange && c.protocol.name !== exchange) continue;
      c.guard.dispose();
      c.socket.terminate();
      this.forget(c);
      dropped++;
    }
    return dropped;
  }

  setFault(kind: keyof ExchangeFaults, value: boolean, exchange?: ExchangeName): void {
    for (const [name, faults] of this.faults) {
      if (!exchange || exchange === name) faults[kind] = value;
    }
  }

  describe(exchange: ExchangeName): { faults: ExchangeFaults; connections: ConnectionState[] } {
    const faults = { ...(this.faults.get(exchange) ?? { silent: false, stalled: false }) };
    const connections = [...this.connections]
      .filter((c) => c.protocol.name === exchange)
      .map((c) => ({ id: c.id, path: `/${c.session.host}${c.session.path}`, openedAt: new Date(c.openedAt).toISOString(), subscriptions: c.subscriptions.size }));
    return { faults, connections };
  }

  /** Every subscribed market of every open connection, with its pre-serialised load-mode frames. */
  loadTargets(): LoadTarget[] {
    const targets: LoadTarget[] = [];
    for (const c of this.connections) {
      const send = (frames: readonly string[]): void => this.sendBatch(c, frames);
      for (const s of c.subscriptions.values()) {
        const quote = s.depth === undefined ? this.state.get(c.protocol.name, s.market, s.ticker) : undefined;
        if (!quote || this.state.isPaused(quote) || !this.state.isListed(quote.exchange, quote.market, quote.ticker)) continue;
        const key = `${c.protocol.name}|${subKey(s)}`;
        let templates = this.templates.get(key);
        if (!templates) this.templates.set(key, (templates = templatesOf(c.protocol, this.state, quote)));
        targets.push({ key, send, market: s.market, templates });
      }
    }
    return targets;
  }

  /** Per exchange, every market with a depth subscription: its channel and how many connections hold it. */
  depthSubscriptions(): Record<ExchangeName, DepthSubscription[]> {
    const out = Object.fromEntries(EXCHANGE_NAMES.map((name) => [name, [] as DepthSubscription[]])) as Record<ExchangeName, DepthSubscription[]>;
    for (const [key, holders] of this.depthIndex) {
      const exchange = key.slice(0, key.indexOf('|')) as ExchangeName;
      const byChannel = new Map<string, DepthSubscription>();
      for (const subs of holders.values()) {
        for (const s of subs) {
          const channel = s.depth ?? '';
          const entry = byChannel.get(channel) ?? { market: s.market, ticker: s.ticker, channel, connections: 0 };
          entry.connections++;
          byChannel.set(channel, entry);
        }
      }
      out[exchange].push(...byChannel.values());
    }
    return out;
  }

  close(): void {
    clearInterval(this.resendTimer);
    this.unlisten();
    this.drop();
    this.server.close();
  }

  private accept(socket: WebSocket, protocol: ExchangeProtocol, host: string, path: string): void {
    const subscriptions = new Map<string, Subscription>();
    const guard = new ConnectionGuard(this.strict, protocol.name, marketOfConnection(protocol.name, host, path), socket, () => subscriptions.size);
    const connection: Connection = {
      id: this.nextId++, protocol, socket, subscriptions, openedAt: Date.now(), guard,
      session: {
        host, path,
        reply: (payload) => this.send(socket, typeof payload === 'string' ? payload : JSON.stringify(payload)),
        subscribe: (s) => {
          subscriptions.set(subKey(s), s);
          if (s.depth !== undefined) this.indexDepth(connection, s, true);
        },
        unsubscribe: (s) => {
          if (subscriptions.delete(subKey(s)) && s.depth !== undefined) this.indexDepth(connection, s, false);
        },
        pushNow: (s) => this.pushOne(connection, s),
      },
    };
    this.connections.add(connection);
    socket.on('message', (data, isBinary) => this.onMessage(connection, data, isBinary));
    // Protocol pings (websocket ping frames) are answered here so that `stall` can withhold the pong.
    socket.on('ping', (data) => {
      if (!this.faultsOf(protocol).stalled) socket.pong(data);
    });
    const forget = (): void => {
      guard.dispose();
      this.forget(connection);
    };
    socket.on('close', forget);
    socket.on('error', forget);
  }

  private onMessage(c: Connection, data: RawData, isBinary: boolean): void {
    if (isBinary || this.faultsOf(c.protocol).stalled) return;
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]).toString('utf8');
    if (!c.guard.admit(text)) return;
    c.protocol.onMessage(c.session, text, this.state);
  }

  private broadcast(quote: SimQuote): void {
    const key = subKey(quote);
    // A delisted market is silent: the venue no longer publishes it.
    if (!this.state.isListed(quote.exchange, quote.market, quote.ticker)) return;
    for (const c of this.connections) {
      if (c.protocol.name === quote.exchange && c.subscriptions.has(key)) this.push(c, quote);
    }
    if (this.depthIndex.size > 0 && this.depthIndex.has(bookKey(quote.exchange, quote))) this.broadcastDepth(quote);
  }

  private forget(c: Connection): void {
    this.connections.delete(c);
    for (const s of c.subscriptions.values()) if (s.depth !== undefined) this.indexDepth(c, s, false);
  }

  private indexDepth(c: Connection, s: Subscription, add: boolean): void {
    const key = bookKey(c.protocol.name, s);
    let holders = this.depthIndex.get(key);
    if (add) {
      if (!holders) this.depthIndex.set(key, (holders = new Map<Connection, Subscription[]>()));
      holders.set(c, [...(holders.get(c) ?? []).filter((h) => h.depth !== s.depth), s]);
      return;
    }
    const left = (holders?.get(c) ?? []).filter((h) => h.depth !== s.depth);
    if (left.length > 0) holders?.set(c, left);
    else holders?.delete(c);
    if (holders?.size === 0) this.depthIndex.delete(key);
  }

  /**
   * Sends a book's changes since its last push to every depth subscription but `except`: one
   * delta per change, shared by all, so that every subscriber's update ids run without a gap.
   */
  private broadcastDepth(quote: SimQuote, except?: { c: Connection; s: Subscription }): void {
    const book = this.state.book(quote);
    const delta = this.state.depth.takeDelta(quote);
    if (!book || !delta) return;
    for (const [c, subs] of this.depthIndex.get(bookKey(quote.exchange, quote)) ?? []) {
      for (const s of subs) {
        if (c !== except?.c || s.depth !== except.s.depth) this.sendDepth(c, c.protocol.renderDepth(s, { quote, book, delta }, this.state));
      }
    }
  }

  /**
   * A new depth subscription: pending changes go to the others first, then the subscriber gets
   * the venue's snapshot; a channel without one (clients read the REST snapshot) gets a first
   * update at once, as a live book would send within its interval.
   */
  private pushDepthNow(c: Connection, s: Subscription): void {
    const quote = this.livePushable(c.protocol.name, s);
    if (!quote) return;
    this.broadcastDepth(quote, { c, s });
    const book = this.state.book(quote);
    const snapshot = book ? c.protocol.renderDepth(s, { quote, book }, this.state) : undefined;
    if (snapshot !== undefined) this.sendDepth(c, snapshot);
    else this.touchDepth(quote);
  }

  /** A new version of a book without change, pushed to its subscribers (the venues' periodic update). */
  private touchDepth(quote: SimQuote): void {
    const i = this.state.instrument(quote.ticker);
    if (!i) return;
    this.state.depth.touch(quote, i);
    this.broadcastDepth(quote);
  }

  private livePushable(exchange: ExchangeName, s: Subscription): SimQuote | undefined {
    const quote = this.state.get(exchange, s.market, s.ticker);
    return quote && !this.state.isPaused(quote) && this.state.isListed(quote.exchange, quote.market, quote.ticker) ? quote : undefined;
  }

  private sendDepth(c: Connection, text: string | undefined): void {
    const faults = this.faultsOf(c.protocol);
    if (text === undefined || faults.silent || faults.stalled) return;
    this.send(c.socket, text);
    c.guard.pushed();
    this.framesSent++;
  }

  /**
   * Every tick re-sends one slice of each connection's subscriptions, so each market is re-sent
   * once per RESEND_INTERVAL_MS without a burst. Re-sends carry the send time as their exchange
   * time, as a live venue's event time would.
   */
  private resendSlice(): void {
    const slice = this.nextSlice;
    this.nextSlice = (slice + 1) % RESEND_SLICES;
    const now = Date.now();
    for (const c of this.connections) {
      let i = 0;
      for (const s of c.subscriptions.values()) if (s.depth === undefined && i++ % RESEND_SLICES === slice) this.pushOne(c, s, now);
    }
    let n = 0;
    for (const [key, holders] of this.depthIndex) {
      const [exchange] = key.split('|') as [ExchangeName];
      const [sub] = holders.values().next().value ?? [];
      const quote = sub && n++ % RESEND_SLICES === slice ? this.livePushable(exchange, sub) : undefined;
      if (quote) this.touchDepth(quote);
    }
  }

  private pushOne(c: Connection, s: Subscription, now?: number): void {
    if (s.depth !== undefined) {
      this.pushDepthNow(c, s);
      return;
    }
    const quote = this.state.get(c.protocol.name, s.market, s.ticker);
    if (quote && !this.state.isPaused(quote) && this.state.isListed(quote.exchange, quote.market, quote.ticker)) {
      this.push(c, now === undefined ? quote : { ...quote, updatedAt: now });
    }
  }

  /** Load-mode frames of one connection, written together (one corked write, not one per frame). */
  private sendBatch(c: Connection, frames: readonly string[]): void {
    const faults = this.faultsOf(c.protocol);
    if (faults.silent || faults.stalled || c.socket.readyState !== c.socket.OPEN) return;
    const raw = (c.socket as unknown as { _socket?: Socket })._socket;
    raw?.cork();
    for (const frame of frames) c.socket.send(frame);
    raw?.uncork();
    c.guard.pushed();
    this.framesSent += frames.length;
  }

  private push(c: Connection, quote: SimQuote): void {
    const faults = this.faultsOf(c.protocol);
    if (faults.silent || faults.stalled) return;
    this.send(c.socket, c.protocol.render(quote, this.state));
    c.guard.pushed();
    this.framesSent++;
  }

  private send(socket: WebSocket, text: string): void {
    if (socket.readyState === socket.OPEN) socket.send(text);
  }

  private faultsOf(protocol: ExchangeProtocol): ExchangeFaults {
    return this.faults.get(protocol.name) ?? { silent: false, stalled: false };
  }
}
