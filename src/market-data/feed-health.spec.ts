import { describe, expect, it } from 'vitest';
import { FeedHealth } from './feed-health.js';
import type { ConnectionEvent } from './market-data-source.js';

const event = (e: Partial<ConnectionEvent>): ConnectionEvent =>
  ({ exchange: 'okx', market: 'SPOT', connectionId: 'c1', state: 'connected', at: Date.parse('2026-01-01T00:00:00Z'), ...e });

describe('FeedHealth refused markets', () => {
  it('lists a refused market per exchange with its reason, leaves the connection state alone and counts it out of markets', () => {
    const health = new FeedHealth(['okx', 'bitget']);
    health.setMarketCount('okx', 40);
    health.onEvent(event({ state: 'connecting' }));
    health.onEvent(event({ state: 'connected' }));
    health.onEvent(event({ state: 'refused', ticker: 'FOO-USDT', reason: 'okx 60018 instId:FOO-USDT doesn\'t exist' }));
    health.onEvent(event({ state: 'refused', market: 'FUTURES', ticker: 'FOO-USDT', reason: 'delisted', at: Date.parse('2026-01-01T00:01:00Z') }));
    const report = health.report(() => null);
    expect(report.okx).toEqual({
      connected: true, lastMessageAt: null, reconnects: 0, markets: 38,
      refused: [
        { ticker: 'FOO-USDT', market: 'SPOT', reason: 'okx 60018 instId:FOO-USDT doesn\'t exist', at: '2026-01-01T00:00:00.000Z' },
        { ticker: 'FOO-USDT', market: 'FUTURES', reason: 'delisted', at: '2026-01-01T00:01:00.000Z' },
      ],
      restBannedUntil: null,
    });
    expect(report.bitget?.refused).toEqual([]);
  });

  it('shows restBannedUntil while a REST ban runs, the later of two, and null once it has passed; connections untouched', () => {
    const health = new FeedHealth(['bybit']);
    const at = Date.parse('2026-01-01T00:00:00Z');
    health.onEvent({ exchange: 'bybit', market: 'SPOT', connectionId: 'bybit:rest', state: 'rest-banned', at, restBannedUntil: at + 600_000 });
    health.onEvent({ exchange: 'bybit', market: 'SPOT', connectionId: 'bybit:rest', state: 'rest-banned', at, restBannedUntil: at + 1_000 });
    expect(health.report(() => null, at).bybit).toMatchObject({ restBannedUntil: '2026-01-01T00:10:00.000Z', reconnects: 0, connected: false });
    expect(health.report(() => null, at + 600_000).bybit?.restBannedUntil).toBeNull();
  });

  it('keeps one entry per market (the latest) and cuts long reasons to 300 characters', () => {
    const health = new FeedHealth(['okx']);
    health.onEvent(event({ state: 'refused', ticker: 'FOO-USDT', reason: 'first' }));
    health.onEvent(event({ state: 'refused', ticker: 'FOO-USDT', reason: 'x'.repeat(1_000) }));
    const refused = health.report(() => null).okx?.refused ?? [];
    expect(refused).toHaveLength(1);
    expect(refused[0]?.reason).toHaveLength(300);
  });
});
