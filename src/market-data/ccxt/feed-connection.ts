import type { ExchangeName, Market } from '../../market-model/exchanges.js';
import { venueOf } from '../../venues/registry.js';
import type { Clock } from '../clock.js';
import { type ConnectionEvent, type ConnectionState, SILENCE_REASON } from '../market-data-source.js';
import { chunk } from '../symbol-universe.js';
import { fromCcxtSymbol } from '../../market-model/ticker.js';
import { type BackoffPolicy, backoffDelay } from './backoff.js';
import type { CcxtBidAsk, FeedClient } from './feed-client.js';

/**
 * Receives every usable best bid/ask of a feed, by market index, as plain numbers: the ingest
 * hot path allocates nothing of its own. Quantities are in base units; `exchangeTime` is NaN
 * when the exchange sent none.
 */
export interface QuoteSink {
  quote(index: number, bid: number, ask: number, bidQty: number, askQty: number, exchangeTime: number, receivedAt: number): void;
}

export interface FeedConnectionOptions {
  id: string;
  exchange: ExchangeName;
  market: Market;
  /** ccxt symbols (`BTC/USDT`, `BTC/USDT:USDT`) watched on this one connection. */
  symbols: readonly string[];
  /** Most symbols in one subscribe request (one watch call each); default all in one. */
  symbolsPerSubscribe?: number;
  /** Per symbol, its index in the ingest's market table: what the sink receives. */
  indexes: readonly number[];
  /**
   * Per symbol, the exchange's own market id (`BTCUSDT`, `BTC-USDT-SWAP`): a subscribe error
   * naming one refuses that symbol alone. Omitted: errors never refuse a symbol.
   */
  marketIds?: readonly string[];
  /**
   * Awaited before every dial: paces new connections to the venue's allowance. What it resolves
   * with is called once the dial has opened or failed.
   */
  beforeDial?: () => Promise<(() => void) | undefined>;
  /**
   * Per symbol, base units per contract: perpetual books on okx, gate and bitget count sizes in
   * contracts, and quotes carry base quantities everywhere. Omitted: 1.
   */
  contractSizes?: readonly number[];
  /**
   * Per symbol, units of the asset one price is for (1000 for `1000PEPE/USDT:USDT`): quotes go
   * out per unit, prices divided and quantities multiplied by it. Omitted: 1.
   */
  multipliers?: readonly number[];
  client: FeedClient;
  clock: Clock;
  silenceTimeoutMs: number;
  backoff: BackoffPolicy;
  sink: QuoteSink;
  onState(event: ConnectionEvent): void;
  random?: () => number;
}

/**
 * One websocket subscription chunk and the loop that keeps it alive.
 *
 * Every update costs O(1): each exchange class stores a parsed update with
 * `this.bidsasks[symbol] = parsed`, so the connection turns its symbols' cache entries into
 * setters that hand the numbers to the sink as they land. The watch is called once per
 * (re)connection, to subscribe; re-arming a multi-symbol watch after every resolve costs
 * O(symbols) per message in ccxt and is what this avoids.
 *
 * ccxt never reconnects by itself: a dropped socket rejects its pending futures, which
 * `client.closed()` waits on, and this loop dials again with backoff. ccxt cannot see a socket
 * that answers pings but sends no data, nor a dead network path (bytes stop, TCP stays open), so
 * the loop also destroys a connection silent for `silenceTimeoutMs` since its last quote, at
 * once (no close handshake: a dead peer never answers one), and re-dials after the first
 * reconnect delay.
 */
export class FeedConnection {
  private stopped = false;
  private silenced = false;
  private lastDataAt = 0;
  private attempt = 0;
  /** Base units per unit of ccxt's amount, as `quantity × sizeMul ÷ sizeDiv` (one of them 1). */
  private readonly sizeMul: readonly number[];
  private readonly sizeDiv: readonly number[];
  private readonly multipliers: readonly number[];
  private groups: string[][];
  /** Symbols still watched (a refused one leaves it), by index into `o.symbols`. */
  private readonly active: Set<number>;
  /** A symbol was refused during the session just ended: re-dial at once, without backoff. */
  private refusedInSession = false;
  /**
   * The venue announced a service upgrade (its folder's `feeds.upgradeNotice`), which ccxt raises
   * as an error on every future of the socket: the old socket still serves until the venue closes
   * it, so the new one is dialled at once.
   */
  private noticedInSession = false;
  private wake: (() => void) | null = null;
  private silenceTimer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<void> | null = null;
  reconnects = 0;

  constructor(private readonly options: FeedConnectionOptions) {
    this.multipliers = options.symbols.map((_, i) => options.multipliers?.[i] ?? 1);
    const sizes = options.symbols.map((_, i) => (options.contractSizes?.[i] ?? 1) * (this.multipliers[i] ?? 1));
    this.sizeDiv = sizes.map(divisorOf);
    this.sizeMul = sizes.map((size, i) => (this.sizeDiv[i] === 1 ? size : 1));
    this.active = new Set(options.symbols.map((_, i) => i));
    this.groups = this.regroup();
    options.symbols.forEach((symbol, i) => this.hook(symbol, i));
  }

  /** ccxt symbols this connection still watches. */
  get symbols(): string[] {
    return [...this.active].map((i) => this.options.symbols[i] ?? '');
  }

  /**
   * Stops watching these symbols (delisted: gone from the exchange's markets) and reports each
   * as refused. The others keep flowing; the next (re)connection subscribes only them.
   */
  drop(symbols: readonly string[], reason: string): void {
    for (const symbol of symbols) {
      const i = this.options.symbols.indexOf(symbol);
      if (i >= 0 && this.active.delete(i)) this.emitRefused(i, reason);
    }
    this.groups = this.regroup();
    if (this.active.size === 0) void this.stop();
  }

  start(): void {
    this.running ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.options.client.close().catch(() => undefined);
    await this.running;
  }

  private async run(): Promise<void> {
    while (!this.stopped && this.active.size > 0) {
      const dialed = await this.options.beforeDial?.();
      if (this.stopped) {
        dialed?.();
        break;
      }
      this.emit('connecting');
      this.refusedInSession = false;
      this.noticedInSession = false;
      const reason = await this.session(dialed);
      if (this.stopped) break;
      this.emit('disconnected', reason);
      await this.options.client.close().catch(() => undefined);
      // A refused symbol is gone; the rest re-subscribe at once: one reconnect, no backoff.
      if (!this.refusedInSession && !this.noticedInSession) await this.sleep(backoffDelay(this.attempt++, this.options.backoff, this.options.random));
      if (!this.stopped) this.reconnects++;
    }
    this.emit('closed', this.active.size === 0 ? 'every symbol refused' : 'shutdown');
  }

  /**
   * Subscribes (one request per group, all on this connection's socket), then waits until the
   * connection fails; resolves with the reason. Connected once every group has delivered.
   */
  private async session(dialed?: () => void): Promise<string> {
    this.silenced = false;
    this.lastDataAt = this.options.clock.now();
    this.armSilence(this.options.silenceTimeoutMs);
    try {
      await Promise.all(this.groups.map((group) => this.options.client.watchBidsAsks([...group])));
      dialed?.();
      if (this.stopped) return 'shutdown';
      this.attempt = 0;
      this.emit('connected');
      return await this.options.client.closed();
    } catch (err) {
      const reason = this.silenced ? SILENCE_REASON : err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      if (!this.silenced) this.refuseNamedIn(reason);
      if (venueOf(this.options.exchange).feeds.upgradeNotice?.test(reason) === true) this.noticedInSession = true;
      return reason;
    } finally {
      dialed?.();
      if (this.silenceTimer) clearTimeout(this.silenceTimer);
      this.silenceTimer = null;
    }
  }

  /**
   * A subscribe error that names some of this connection's market ids (okx `60018 ... instId:X
   * doesn't exist`, bitget `30001`, bybit `Invalid symbol :[orderbook.1.X]`, gate `unknown
   * currency pair X`) refuses those symbols. An error naming every one (or none) refuses nothing:
   * that is the connection failing, not a symbol.
   */
  private refuseNamedIn(reason: string): void {
    const ids = this.options.marketIds;
    if (!ids) return;
    const named = [...this.active].filter((i) => {
      const id = ids[i];
      return id !== undefined && id !== '' && new RegExp(`(?<![A-Za-z0-9_-])${escapeRegExp(id)}(?![A-Za-z0-9_-])`).test(reason);
    });
    if (named.length === 0 || named.length === this.active.size) return;
    for (const i of named) {
      this.active.delete(i);
      this.emitRefused(i, reason);
    }
    this.groups = this.regroup();
    this.refusedInSession = true;
  }

  private regroup(): string[][] {
    const symbols = this.symbols;
    return chunk(symbols, Math.max(1, this.options.symbolsPerSubscribe ?? symbols.length));
  }

  private emitRefused(i: number, reason: string): void {
    const { exchange, market, id: connectionId } = this.options;
    const symbol = this.options.symbols[i] ?? '';
    this.options.onState({ exchange, market, connectionId, state: 'refused', at: this.options.clock.now(), reason, ticker: fromCcxtSymbol(symbol) });
  }

  /**
   * The silence deadline is exact: the timer fires when the last quote is `silenceTimeoutMs` old.
   * A quote moves the deadline without touching the timer (the hot path stays O(1)); a timer that
   * fires early re-arms for what is left.
   */
  private armSilence(delayMs: number): void {
    this.silenceTimer = setTimeout(() => this.checkSilence(), delayMs);
  }

  private checkSilence(): void {
    this.silenceTimer = null;
    if (this.silenced || this.stopped) return;
    const quietMs = this.options.clock.now() - this.lastDataAt;
    if (quietMs < this.options.silenceTimeoutMs) {
      this.armSilence(this.options.silenceTimeoutMs - quietMs);
      return;
    }
    this.silenced = true;
    // Destroying the socket rejects the pending futures at once, which ends the session.
    this.options.client.terminate();
  }

  /**
   * Replaces the symbol's cache slot with an accessor that hands each update to the sink and
   * keeps nothing: an update ccxt stores (with its `info`, the raw message) would otherwise live
   * until the market's next one, long enough to be copied by a scavenge and often promoted, and
   * those copies were most of the worker's GC work (BENCHMARKS.md). Reads see no entry;
   * nothing in ccxt reads the cache on this path (`newUpdates` returns the update itself).
   */
  private hook(symbol: string, i: number): void {
    Object.defineProperty(this.options.client.bidsasks, symbol, {
      configurable: true,
      enumerable: true,
      get: () => undefined,
      set: (entry: CcxtBidAsk | undefined) => {
        if (entry !== undefined) this.onUpdate(i, entry);
      },
    });
  }

  private onUpdate(i: number, e: CcxtBidAsk): void {
    if (!this.active.has(i)) return;
    const receivedAt = this.options.clock.now();
    this.lastDataAt = receivedAt;
    const { bid, ask } = e;
    // One-sided or empty books carry no usable quote.
    if (typeof bid !== 'number' || typeof ask !== 'number' || !(bid > 0) || !(ask > 0)) return;
    const lot = this.multipliers[i];
    const mul = this.sizeMul[i];
    const div = this.sizeDiv[i];
    this.options.sink.quote(
      this.options.indexes[i],
      lot === 1 ? bid : bid / lot,
      lot === 1 ? ask : ask / lot,
      ((e.bidVolume ?? 0) * mul) / div,
      ((e.askVolume ?? 0) * mul) / div,
      e.timestamp ?? NaN,
      receivedAt,
    );
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
    const { exchange, market, id: connectionId } = this.options;
    this.options.onState({ exchange, market, connectionId, state, at: this.options.clock.now(), reason });
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A contract size below 1 that is a power of ten's reciprocal (okx and gate lots: 0.01, 0.0001)
 * scales by dividing by that power: 2517 ÷ 10,000 is the double nearest 0.2517, where
 * 2517 × 0.0001 is 0.25170000000000003. Any other size multiplies (divisor 1).
 */
function divisorOf(size: number): number {
  if (!(size > 0 && size < 1)) return 1;
  const inverse = Math.round(1 / size);
  return 10 ** Math.round(Math.log10(inverse)) === inverse && 1 / inverse === size ? inverse : 1;
}
