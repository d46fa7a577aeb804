import type { Exchange } from 'ccxt';
import { describe, expect, it } from 'vitest';
import type { ExchangeName } from '../../market-model/exchanges.js';
import { toDepthClient } from './ccxt-depth-client.js';

/** A ccxt client stand-in recording the order-book calls the adapter makes. */
function stub(): { exchange: Exchange; calls: string[] } {
  const calls: string[] = [];
  const record = (name: string) => (arg: unknown, second?: unknown) => {
    calls.push(`${name} ${JSON.stringify(arg)} ${JSON.stringify(second ?? null)}`);
    return Promise.resolve({});
  };
  const exchange = {
    options: { streamLimits: { spot: 50, future: 50, option: 50 } },
    orderbooks: {},
    clients: {},
    client: () => ({}),
    watchOrderBook: record('watchOrderBook'),
    watchOrderBookForSymbols: record('watchOrderBookForSymbols'),
    unWatchOrderBook: record('unWatchOrderBook'),
    unWatchOrderBookForSymbols: record('unWatchOrderBookForSymbols'),
    close: () => Promise.resolve(),
  } as unknown as Exchange;
  return { exchange, calls };
}

const run = async (name: ExchangeName, symbols: string[]): Promise<{ calls: string[]; options: Record<string, unknown> }> => {
  const { exchange, calls } = stub();
  const client = toDepthClient(name, exchange);
  await client.subscribe(symbols);
  await client.unsubscribe(symbols);
  return { calls, options: exchange.options as Record<string, unknown> };
};

describe('toDepthClient: the channel each venue is watched on, through ccxt', () => {
  it('okx: many symbols in one request on `books` (a limit other than 1-5, 50 and 400)', async () => {
    expect((await run('okx', ['A/USDT', 'B/USDT'])).calls).toEqual([
      'watchOrderBookForSymbols ["A/USDT","B/USDT"] 20',
      'unWatchOrderBookForSymbols ["A/USDT","B/USDT"] {}',
    ]);
  });

  it('bybit: orderbook.50, the unsubscribe naming the same depth', async () => {
    expect((await run('bybit', ['A/USDT', 'B/USDT'])).calls).toEqual([
      'watchOrderBookForSymbols ["A/USDT","B/USDT"] 50',
      'unWatchOrderBookForSymbols ["A/USDT","B/USDT"] {"limit":50}',
    ]);
  });

  it('bitget: books15; unsubscribes one symbol per call', async () => {
    expect((await run('bitget', ['A/USDT', 'B/USDT'])).calls).toEqual([
      'watchOrderBookForSymbols ["A/USDT","B/USDT"] 15',
      'unWatchOrderBook "A/USDT" {"limit":15}',
      'unWatchOrderBook "B/USDT" {"limit":15}',
    ]);
  });

  it('gate: one symbol per call, the unsubscribe naming the same depth', async () => {
    expect((await run('gate', ['A/USDT'])).calls).toEqual(['watchOrderBook "A/USDT" 20', 'unWatchOrderBook "A/USDT" {"limit":20}']);
  });

  it('binance: one symbol per call, and at most 8 depth sockets per market type', async () => {
    const { calls, options } = await run('binance', ['A/USDT']);
    expect(calls).toEqual(['watchOrderBook "A/USDT" 20', 'unWatchOrderBook "A/USDT" {}']);
    expect(options.streamLimits).toMatchObject({ spot: 8, future: 8 });
  });
});
