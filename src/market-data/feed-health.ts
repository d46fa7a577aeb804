import type { ExchangeName, Market } from '../market-model/exchanges.js';
import type { ConnectionEvent, ConnectionState } from './market-data-source.js';

export interface ExchangeHealth {
  connected: boolean;
  /** RFC 3339, or null before the first tick. */
  lastMessageAt: string | null;
  reconnects: number;
  /** Markets watched (refused ones left out). */
  markets: number;
  /** Markets the exchange refused or delisted, dropped from the feeds (newest last). */
  refused: RefusedMarket[];
  /** RFC 3339: the venue banned REST calls (429/418/403) and none is made until then; null when no ban runs. */
  restBannedUntil: string | null;
}

export interface RefusedMarket {
  ticker: string;
  market: Market;
  /** The exchange's error, or why the market was dropped (`delisted`). */
  reason: string;
  /** RFC 3339. */
  at: string;
}

/** Reasons are exchange error texts; keep the report small whatever an exchange sends. */
const MAX_REASON_CHARS = 300;

interface ConnectionRecord {
  state: ConnectionState;
  dials: number;
}

/**
 * Folds connection events into per-exchange feed health (rules: operating). An exchange is connected while
 * it has at least one feed connection and every one of them is up.
 */
export class FeedHealth {
  private readonly connections = new Map<ExchangeName, Map<string, ConnectionRecord>>();
  private readonly reconnects = new Map<ExchangeName, number>();
  private readonly markets = new Map<ExchangeName, number>();
  private readonly refused = new Map<ExchangeName, Map<string, RefusedMarket>>();
  private readonly restBannedUntil = new Map<ExchangeName, number>();

  constructor(private readonly exchanges: readonly ExchangeName[]) {}

  onEvent(event: ConnectionEvent): void {
    if (event.state === 'rest-banned') {
      this.restBannedUntil.set(event.exchange, Math.max(this.restBannedUntil.get(event.exchange) ?? 0, event.restBannedUntil ?? 0));
      return;
    }
    let byId = this.connections.get(event.exchange);
    if (!byId) this.connections.set(event.exchange, (byId = new Map<string, ConnectionRecord>()));
    if (event.state === 'closed') {
      byId.delete(event.connectionId);
      return;
    }
    if (event.state === 'refused') {
      this.recordRefused(event.exchange, event.market, event.ticker ?? '', event.reason ?? 'refused', event.at);
      return;
    }
    if (event.state === 'listed') {
      // The venue trades it again: a new feed watches it, it is no longer refused.
      this.refused.get(event.exchange)?.delete(`${event.market}|${event.ticker ?? ''}`);
      return;
    }
    const record = byId.get(event.connectionId) ?? { state: event.state, dials: 0 };
    if (event.state === 'connecting') {
      record.dials++;
      if (record.dials > 1) this.reconnects.set(event.exchange, this.reconnectCount(event.exchange) + 1);
    }
    record.state = event.state;
    byId.set(event.connectionId, record);
  }

  private recordRefused(exchange: ExchangeName, market: Market, ticker: string, reason: string, at: number): void {
    let byMarket = this.refused.get(exchange);
    if (!byMarket) this.refused.set(exchange, (byMarket = new Map<string, RefusedMarket>()));
    const key = `${market}|${ticker}`;
    byMarket.delete(key);
    byMarket.set(key, { ticker, market, reason: reason.slice(0, MAX_REASON_CHARS), at: new Date(at).toISOString() });
  }

  setMarketCount(exchange: ExchangeName, count: number): void {
    this.markets.set(exchange, count);
  }

  reconnectCount(exchange: ExchangeName): number {
    return this.reconnects.get(exchange) ?? 0;
  }

  isConnected(exchange: ExchangeName): boolean {
    const byId = this.connections.get(exchange);
    if (!byId || byId.size === 0) return false;
    for (const record of byId.values()) if (record.state !== 'connected') return false;
    return true;
  }

  report(lastMessageAt: (exchange: ExchangeName) => number | null, now = Date.now()): Record<string, ExchangeHealth> {
    const out: Record<string, ExchangeHealth> = {};
    for (const exchange of this.exchanges) {
      const last = lastMessageAt(exchange);
      const banned = this.restBannedUntil.get(exchange);
      out[exchange] = {
        connected: this.isConnected(exchange),
        lastMessageAt: last === null ? null : new Date(last).toISOString(),
        reconnects: this.reconnectCount(exchange),
        markets: Math.max(0, (this.markets.get(exchange) ?? 0) - (this.refused.get(exchange)?.size ?? 0)),
        refused: [...(this.refused.get(exchange)?.values() ?? [])],
        restBannedUntil: banned !== undefined && banned > now ? new Date(banned).toISOString() : null,
      };
    }
    return out;
  }
}
