import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SseFrame } from '../../src/common/sse/sse-frame.js';
import type { ExchangeName } from '../../src/market-model/exchanges.js';
import { MarketCostsJob } from '../../src/market-data/market-costs.job.js';
import { OpportunityStreamService } from '../../src/realtime/opportunity-stream.service.js';
import { type MarketFixture, startMarketFixture } from '../utils/market-fixture.js';
import { until } from '../utils/wait.js';

/**
 * Coin identity by contract (rules: tickers), through the unmodified ccxt clients against the strict
 * simulator: the venues' currency lists carry each network's token contract address (gate `addr`,
 * bitget and binance `contractAddress`; binance only to a signed call, so its read-only keys are set).
 * gate and bitget give PEPE the same ERC20 address, binance another: binance's PEPE is another coin,
 * excluded at the next currency refresh with both addresses on /health/market, with no price wait
 * (NAME_COLLISION_MIN_MS stays at ten minutes). SYMBOL_DENYLIST leaves gate's BTC out by hand.
 */
const EXCHANGES: ExchangeName[] = ['binance', 'gate', 'bitget'];
const PEPE = '0x6982508145454Ce325dDbE47a25d4ec3d2311933';
const FAKE = '0x1111111111111111111111111111111111111111';

interface Excluded { ticker: string; exchange: ExchangeName; reason: string; since: string; contract?: { network: string; address: string; otherAddress: string } }

describe('coin identity by contract address, and SYMBOL_DENYLIST', () => {
  let m: MarketFixture;
  const excluded = async (): Promise<Excluded[]> =>
    ((await (await fetch(`${m.app.baseUrl}/health/market`)).json()) as { excluded: Excluded[] }).excluded;
  const putNetworks = async (addresses: Partial<Record<ExchangeName, string>>): Promise<void> => {
    const body = Object.entries(addresses).map(([exchange, contract]) => ({
      exchange, asset: 'PEPE', network: 'ETH', withdrawEnabled: true, depositEnabled: true, withdrawFee: 100000, contract,
    }));
    const res = await fetch(`${m.sim.url}/_sim/networks`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(res.status, await res.clone().text()).toBe(200);
    await m.app.app.get(MarketCostsJob).refresh();
  };

  beforeAll(async () => {
    m = await startMarketFixture(EXCHANGES, ['BTC-USDT', 'PEPE-USDT'], {
      SYMBOL_DENYLIST: 'gate:BTC',
      SAMPLE_INTERVAL_MS: '0',
      HISTORY_INTERVAL_MS: '0',
      FUNDING_REFRESH_MS: '0',
      ARBITRAGE_DEBOUNCE_MS: '50',
      // binance signs its currency call with these (the simulator accepts any).
      BINANCE_API_KEY: 'e2e-key',
      BINANCE_API_SECRET: 'e2e-secret',
    });
    await m.waitConnected(30_000);
  }, 60_000);

  afterAll(async () => {
    await m?.close();
  });

  it('excludes binance\'s PEPE at the currency refresh that shows its other contract, with both addresses', async () => {
    await putNetworks({ binance: FAKE, gate: PEPE, bitget: PEPE });
    const h = await until(excluded, (x) => x.some((e) => e.ticker === 'PEPE-USDT'), 5_000);
    expect(h.filter((e) => e.ticker === 'PEPE-USDT')).toEqual([{
      ticker: 'PEPE-USDT', exchange: 'binance', since: expect.any(String) as string,
      // ccxt unifies binance's and gate's chain name ETH as ERC20; EVM addresses compare in lower case.
      reason: `contract mismatch: PEPE on binance is ${FAKE} on ERC20, on bitget ${PEPE.toLowerCase()}: another coin under the same ticker`,
      contract: { network: 'ERC20', address: FAKE, otherAddress: PEPE.toLowerCase() },
    }]);
  }, 20_000);

  it('keeps a mismatched venue out of opportunities at once, and readmits it when the addresses agree', async () => {
    const frames: string[] = [];
    const sub = m.app.app.get(OpportunityStreamService).frames(null).subscribe((f: SseFrame) => frames.push(f.bytes.toString('utf8')));
    try {
      // binance's "PEPE" 5 % under the others: a route binance → bitget would be the ticker's best were
      // it the same coin. The event the detector sends for the ticker names its best route, so an
      // event buying on gate (the best without binance) shows binance was left out.
      const spot = (exchange: string, bid: number, ask: number) => ({ exchange, market: 'SPOT' as const, ticker: 'PEPE-USDT', bid, ask });
      const quotes = [spot('binance', 0.0000172, 0.0000173), spot('gate', 0.0000182, 0.0000183), spot('bitget', 0.0000185, 0.0000186)];
      await m.putQuotes(quotes);
      await m.booked(quotes);
      await until(() => frames.some((f) => f.includes('"ticker":"PEPE-USDT"') && f.includes('"buyExchange":"gate"')), (ok) => ok, 10_000);
      expect(frames.filter((f) => f.includes('"ticker":"PEPE-USDT"') && f.includes('binance'))).toEqual([]);
      // binance corrects its listing: the next currency refresh readmits it and the route opens.
      await putNetworks({ binance: PEPE.toLowerCase() });
      await until(excluded, (x) => !x.some((e) => e.ticker === 'PEPE-USDT'), 5_000);
      await m.putQuotes([spot('binance', 0.0000172, 0.0000174)]);
      await until(() => frames.some((f) => f.includes('"ticker":"PEPE-USDT"') && f.includes('"buyExchange":"binance"')), (ok) => ok, 10_000);
    } finally {
      sub.unsubscribe();
    }
  }, 30_000);

  it('SYMBOL_DENYLIST leaves gate:BTC out of opportunities and lists it', async () => {
    const h = await excluded();
    expect(h.filter((e) => e.ticker === 'BTC-USDT')).toEqual([
      { ticker: 'BTC-USDT', exchange: 'gate', reason: 'denied: listed in SYMBOL_DENYLIST', since: new Date(0).toISOString() },
    ]);
    const frames: string[] = [];
    const sub = m.app.app.get(OpportunityStreamService).frames(null).subscribe((f: SseFrame) => frames.push(f.bytes.toString('utf8')));
    try {
      const spot = (exchange: string, bid: number, ask: number) => ({ exchange, market: 'SPOT' as const, ticker: 'BTC-USDT', bid, ask });
      // gate's BTC 2 % over binance's and bitget's 1 %: only the bitget route may open.
      await m.putQuotes([spot('binance', 99_990, 100_000), spot('bitget', 101_000, 101_010), spot('gate', 102_000, 102_010)]);
      // The ticker's event names its best route: selling on bitget, not on gate's higher bid, shows gate left out.
      await until(() => frames.some((f) => f.includes('"ticker":"BTC-USDT"') && f.includes('"sellExchange":"bitget"')), (ok) => ok, 10_000);
      expect(frames.filter((f) => f.includes('"ticker":"BTC-USDT"') && f.includes('"gate"'))).toEqual([]);
    } finally {
      sub.unsubscribe();
    }
  }, 30_000);
});
