import type { ExchangeName, Market } from '../exchanges.js';
import type { Clock } from '../clock.js';
import type { ConnectionEvent, ConnectionState, QuoteTick } from '../market-data-source.js';
import { fromCcxtSymbol } from '../ticker.js';
import { type BackoffPolicy, backoffDelay } from './backoff.js';
import type { CcxtBidAsk, FeedClient } from './feed-client.js';

export interface FeedConnectionOptions {
  id: string;
  exchange: ExchangeName;
  market: Market;
  /** ccxt symbols (`BTC/USDT`, `BTC/USDT:USDT`) watched on this one connection. */
  symbols: readonly string[];
  /**
   * Per symbol, base units per contract: perpetual books on okx, gate and bitget count sizes in
   * contracts, and ticks carry base quantities everywhere. Omitted: 1.
   */
  contractSizes?: readonly number[];
  client: FeedClient;
  clock: Clock;
  silenceTimeoutMs: number;
  backoff: BackoffPolicy;
  onTick(tick: QuoteTick): void;
  onState(event: ConnectionEvent): void;
  random?: () => number;
}

/**
 * One websocket subscription chunk and the loop that keeps it alive. ccxt never reconnects by
 * itself (the pending watch rejects and the next call re-dials), so this loop owns reconnects,
 * with backoff; and since ccxt cannot see a socket that answers pings but sends no data, the
 * loop closes a connection silent for `silenceTimeoutMs` and dials again.
 */
export class FeedConnection {
  private stopped = false;
  private silenced = false;
  private lastDataAt = 0;
  private attempt = 0;
  private readonly seen: (CcxtBidAsk | undefined)[];
  /** Canonical tickers by symbol index, so the hot path builds no strings. */
  private readonly tickers: string[];
  private wake: (() => void) | null = null;
  private running: Promise<void> | null = null;
  reconnects = 0;

  constructor(private readonly o: FeedConnectionOptions) {
    this.seen = new Array<CcxtBidAsk | undefined>(o.symbols.length);
    this.tickers = o.symbols.map(fromCcxtSymbol);
  }

  start(): void {
    this.running ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.o.client.close().catch(() => undefined);
    await this.running;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.emit('connecting');
      const reason = await this.session();
      if (this.stopped) break;
      this.emit('disconnected', reason);
      await this.o.client.close().catch(() => undefined);
      await this.sleep(backoffDelay(this.attempt++, this.o.backoff, this.o.random));
      if (!this.stopped) this.reconnects++;
    }
    this.emit('closed', 'shutdown');
  }

  /** Watches until the connection fails; resolves with the reason. */
  private async session(): Promise<string> {
    this.silenced = false;
    this.lastDataAt = this.o.clock.now();
    const period = Math.max(10, Math.floor(this.o.silenceTimeoutMs / 4));
    const watchdog = setInterval(() => this.checkSilence(), period);
    let connected = false;
    try {
      for (;;) {
        await this.o.client.watchBidsAsks([...this.o.symbols]);
        if (this.stopped) return 'shutdown';
        this.lastDataAt = this.o.clock.now();
        if (!connected) {
          connected = true;
          this.attempt = 0;
          this.emit('connected');
        }
        this.drainCache();
      }
    } catch (err) {
      return this.silenced ? 'silence' : err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    } finally {
      clearInterval(watchdog);
    }
  }

  private checkSilence(): void {
    if (this.silenced || this.stopped) return;
    if (this.o.clock.now() - this.lastDataAt <= this.o.silenceTimeoutMs) return;
    this.silenced = true;
    // Closing rejects the pending watch (ExchangeClosedByUser), which ends the session.
    void this.o.client.close().catch(() => undefined);
  }

  /**
   * A multi-symbol watch resolves with only some of the updates that arrived; the rest sit in
   * the client's cache. ccxt stores a new object per update, so identity tells what is new.
   */
  private drainCache(): void {
    const cache = this.o.client.bidsasks;
    const symbols = this.o.symbols;
    const receivedAt = this.o.clock.now();
    for (let i = 0; i < symbols.length; i++) {
      const entry = cache[symbols[i]];
      if (entry === undefined || entry === this.seen[i]) continue;
      this.seen[i] = entry;
      const tick = toTick(this.o.exchange, this.o.market, this.tickers[i], entry, receivedAt, this.o.contractSizes?.[i] ?? 1);
      if (tick) this.o.onTick(tick);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    }).finally(() => {
      this.wake = null;
    });
  }

  private emit(state: ConnectionState, reason?: string): void {
    const { exchange, market, id: connectionId } = this.o;
    this.o.onState({ exchange, market, connectionId, state, at: this.o.clock.now(), reason });
  }
}

/** ccxt bid/ask → tick; null for one-sided or empty books, which carry no usable quote. */
export function toTick(
  exchange: ExchangeName,
  market: Market,
  ticker: string,
  e: CcxtBidAsk,
  receivedAt: number,
  contractSize = 1,
): QuoteTick | null {
  const { bid, ask } = e;
  if (typeof bid !== 'number' || typeof ask !== 'number' || !(bid > 0) || !(ask > 0)) return null;
  return {
    exchange,
    market,
    ticker,
    bid,
    ask,
    bidQty: (e.bidVolume ?? 0) * contractSize,
    askQty: (e.askVolume ?? 0) * contractSize,
    exchangeTime: e.timestamp ?? null,
    receivedAt,
  };
}
