import type { ExchangeName } from './exchanges.js';
import type { ConnectionEvent, ConnectionState } from './market-data-source.js';

export interface ExchangeHealth {
  connected: boolean;
  /** RFC 3339, or null before the first tick. */
  lastMessageAt: string | null;
  reconnects: number;
  markets: number;
}

interface ConnectionRecord {
  state: ConnectionState;
  dials: number;
}

/**
 * Folds connection events into per-exchange feed health (D12). An exchange is connected while
 * it has at least one feed connection and every one of them is up.
 */
export class FeedHealth {
  private readonly connections = new Map<ExchangeName, Map<string, ConnectionRecord>>();
  private readonly reconnects = new Map<ExchangeName, number>();
  private readonly markets = new Map<ExchangeName, number>();

  constructor(private readonly exchanges: readonly ExchangeName[]) {}

  onEvent(event: ConnectionEvent): void {
    let byId = this.connections.get(event.exchange);
    if (!byId) this.connections.set(event.exchange, (byId = new Map<string, ConnectionRecord>()));
    if (event.state === 'closed') {
      byId.delete(event.connectionId);
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

  report(lastMessageAt: (exchange: ExchangeName) => number | null): Record<string, ExchangeHealth> {
    const out: Record<string, ExchangeHealth> = {};
    for (const exchange of this.exchanges) {
      const last = lastMessageAt(exchange);
      out[exchange] = {
        connected: this.isConnected(exchange),
        lastMessageAt: last === null ? null : new Date(last).toISOString(),
        reconnects: this.reconnectCount(exchange),
        markets: this.markets.get(exchange) ?? 0,
      };
    }
    return out;
  }
}
