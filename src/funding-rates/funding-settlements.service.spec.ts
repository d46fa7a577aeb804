import type { DataSource } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/validate-env.js';
import type { Clock } from '../market-data/clock.js';
import { FakeMarketDataSource } from '../market-data/testing/fake-market-data-source.js';
import type { FundingObservation } from './funding.engine.js';
import { FundingSettlementRepository, type IntervalChange, type SettlementSource, type StoredSettlement } from './funding-settlement.repository.js';
import { type FundingIntervalChange, FundingSettlementsService } from './funding-settlements.service.js';

const H = 3_600_000;
const T0 = Date.UTC(2026, 10, 26, 16);

/** The repository's contract in memory: the venue's row replaces, an observed one never does. */
class MemoryRepository extends FundingSettlementRepository {
  readonly rows = new Map<string, StoredSettlement & { source: SettlementSource }>();
  readonly changes: IntervalChange[] = [];

  constructor() {
    super(undefined as unknown as DataSource);
  }

  override save(rows: readonly StoredSettlement[], source: SettlementSource): Promise<void> {
    for (const r of rows) {
      const key = `${r.exchange}|${r.ticker}|${r.settledAt}`;
      if (source === 'venue' || !this.rows.has(key)) this.rows.set(key, { ...r, source });
    }
    return Promise.resolve();
  }

  override after(from: number): Promise<StoredSettlement[]> {
    return Promise.resolve([...this.rows.values()].filter((r) => r.settledAt > from));
  }

  override recordIntervalChange(c: IntervalChange): Promise<void> {
    this.changes.push(c);
    return Promise.resolve();
  }

  override latestIntervalChanges(): Promise<IntervalChange[]> {
    return Promise.resolve([]);
  }

  override deleteBefore(): Promise<number> {
    return Promise.resolve(0);
  }
}

function setup() {
  const clock = { t: T0, now(): number { return this.t; } } satisfies Clock & { t: number };
  const source = new FakeMarketDataSource();
  const repo = new MemoryRepository();
  const config = loadConfig({ EXCHANGES: 'okx', LOG_LEVEL: 'silent' });
  return { clock, source, repo, service: new FundingSettlementsService(config, source, clock, repo) };
}

function obs(over: Partial<FundingObservation> = {}): FundingObservation {
  return {
    exchange: 'okx', contract: 'SOL-USDT-SWAP', symbol: 'SOL-USDT', fundingRate: 0.0002, intervalSeconds: 4 * 3600,
    intervalSource: 'exchange', nextFundingTime: T0 + 4 * H, spotPrice: null, markPrice: null, updatedAt: T0, ...over,
  };
}

describe('FundingSettlementsService', () => {
  it('backfills the venue\'s payments with intervals from their times and dates the 8 h → 4 h change', async () => {
    const { source, repo, service } = setup();
    const times = [-40, -32, -24, -20, -16, -12, -8, -4, 0].map((h) => T0 + h * H);
    source.fundingHistory.set('okx|SOL-USDT', times.map((t, i) => ({ settledAt: t, rate: i < 3 ? 0.0001 : 0.0002, markPrice: null })));
    const announced: FundingIntervalChange[] = [];
    service.intervalChanges.subscribe((c) => announced.push(c));
    await service.observe([obs()], T0);
    await service.backfill();
    expect(announced).toEqual([{ exchange: 'okx', ticker: 'SOL-USDT', at: T0 - 20 * H, fromHours: 8, toHours: 4 }]);
    expect(source.historyFetches).toEqual([{ exchange: 'okx', ticker: 'SOL-USDT', since: T0 - 30 * 24 * H }]);
    expect([...repo.rows.values()].map((r) => r.intervalHours)).toEqual([8, 8, 8, 4, 4, 4, 4, 4, 4]);
    expect(repo.changes).toEqual([{ exchange: 'okx', ticker: 'SOL-USDT', changedAt: T0 - 20 * H, fromHours: 8, toHours: 4 }]);
    expect(service.cache.figures('okx', 'SOL-USDT')).toMatchObject({ apr1d: 43.8, apr3d: 27.375, settledRate: 0.0002, intervalChangedAt: T0 - 20 * H });
  });

  it('reads again only after the next payment time, from the last payment read', async () => {
    const { clock, source, service } = setup();
    source.fundingHistory.set('okx|SOL-USDT', [{ settledAt: T0 - 4 * H, rate: 0.0001, markPrice: null }]);
    await service.observe([obs()], T0);
    await service.backfill();
    await service.backfill();
    expect(source.historyFetches).toHaveLength(1);
    clock.t = T0 + 4 * H + 60_000;
    await service.backfill();
    expect(source.historyFetches.at(-1)?.since).toBe(T0 - 4 * H + 1);
  });

  it('a stated interval differing from the last one seen is an interval change, detected at that collection and announced once', async () => {
    const { repo, service } = setup();
    const announced: FundingIntervalChange[] = [];
    service.intervalChanges.subscribe((c) => announced.push(c));
    await service.observe([obs({ intervalSeconds: 8 * 3600 })], T0);
    await service.observe([obs({ intervalSeconds: 4 * 3600 })], T0 + 60_000);
    await service.observe([obs({ intervalSeconds: 4 * 3600 })], T0 + 120_000);
    expect(repo.changes).toEqual([{ exchange: 'okx', ticker: 'SOL-USDT', changedAt: T0 + 60_000, fromHours: 8, toHours: 4 }]);
    expect(announced).toEqual([{ exchange: 'okx', ticker: 'SOL-USDT', at: T0 + 60_000, fromHours: 8, toHours: 4 }]);
    expect(service.cache.figures('okx', 'SOL-USDT').intervalChangedAt).toBe(T0 + 60_000);
  });

  it('a payment the collector sees happen is stored from the rate it announced; the venue\'s row then replaces it', async () => {
    const { repo, service, source, clock } = setup();
    await service.observe([obs({ fundingRate: 0.0003, nextFundingTime: T0 + 1000 })], T0);
    clock.t = T0 + 2000;
    await service.observe([obs({ nextFundingTime: T0 + 1000 + 4 * H })], T0 + 2000);
    expect(repo.rows.get(`okx|SOL-USDT|${T0 + 1000}`)).toMatchObject({ rate: 0.0003, intervalHours: 4, source: 'observed' });
    source.fundingHistory.set('okx|SOL-USDT', [{ settledAt: T0 + 1000, rate: 0.00029, markPrice: null }]);
    await service.backfill();
    expect(repo.rows.get(`okx|SOL-USDT|${T0 + 1000}`)).toMatchObject({ rate: 0.00029, source: 'venue' });
  });

  it('a failed read is retried later and does not stop the others', async () => {
    const { source, service } = setup();
    source.fundingHistory.set('okx|SOL-USDT', new Error('ExchangeNotAvailable'));
    source.fundingHistory.set('okx|ETH-USDT', [{ settledAt: T0 - H, rate: 0.0001, markPrice: null }]);
    await service.observe([obs(), obs({ symbol: 'ETH-USDT', contract: 'ETH-USDT-SWAP' })], T0);
    await expect(service.backfill()).resolves.toBeUndefined();
    expect(service.cache.figures('okx', 'ETH-USDT').settledRate).toBe(0.0001);
  });
});
