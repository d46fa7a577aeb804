import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AppConfig } from '../config/app-config.js';
import type { FundingObservation } from '../funding-rates/funding.engine.js';
import type { OpportunityEventDto } from '../realtime/dto/opportunity-event.dto.js';
import { EventPricings, type SizeInputs, sizeOf } from '../realtime/opportunity-sizing.js';
import { AlertEvaluatorService } from './alert-evaluator.service.js';
import type { Firing } from './alert-outbox.repository.js';
import type { AlertRuleEntity } from './alert-rule.entity.js';

const EXCHANGES = ['binance', 'okx', 'bybit'];
const webhook = { type: 'webhook' as const, url: 'http://127.0.0.1/x', secret: null };

function rule(id: string, condition: object, extra: Partial<AlertRuleEntity> = {}): AlertRuleEntity {
  return {
    id, email: `${id}@example.com`, name: id, kind: 'opportunity', condition, channel: webhook, cooldownSeconds: 300,
    enabled: true, disabledReason: null, createdAt: new Date(0), ...extra,
  };
}

function event(net: number, openedAt: string, over: Partial<OpportunityEventDto> = {}): OpportunityEventDto {
  return {
    ticker: 'BTC-USDT', buyExchange: 'binance', sellExchange: 'okx', buyPrice: 100, sellPrice: 101, profitPercentAskBid: 1,
    volume: null, timestamp: '', netProfitPercent: net, network: null, transferable: true, costsEstimated: false, openedAt, ageMs: 0, size: null, quoteConversions: [], transferNote: null, ...over,
  };
}

/** The evaluator over in-memory fakes: a settable clock, rules, and an outbox that records firings. */
function harness(rules: AlertRuleEntity[], health: Record<string, { connected: boolean }> = {}) {
  const clock = { t: 1_000_000, now: () => clock.t };
  const recorded: Firing[] = [];
  let wakes = 0;
  const config = { marketData: { exchanges: EXCHANGES, websocketEnabled: true } } as unknown as AppConfig;
  const evaluator = new AlertEvaluatorService(
    config,
    { find: () => Promise.resolve([...rules]) } as never,
    { loadMemories: () => Promise.resolve(new Map()), record: (f: Firing[]) => Promise.resolve(void recorded.push(...f)) } as never,
    { wake: () => void wakes++, start: () => undefined } as never,
    { fired: { inc: () => undefined } } as never,
    { changed: new Subject<void>() } as never,
    { published: new Subject() } as never,
    { collected: new Subject() } as never,
    { healthReport: () => health } as never,
    { run: (start: () => Promise<void>) => start() } as never,
    clock,
    { intervalChanges: new Subject() } as never,
  );
  return { evaluator, clock, recorded, wakes: () => wakes };
}

describe('AlertEvaluatorService: opportunity rules', () => {
  it('per (rule, route): first fires; inside the cool-down nothing; at the cool-down a reopened route fires; a 1.5× rise fires', async () => {
    const h = harness([rule('r1', { minProfit: 0.5 })]);
    await h.evaluator.reload();
    h.evaluator.onOpportunity(event(0.2, 'A'));
    h.clock.t += 299_999;
    h.evaluator.onOpportunity(event(0.9, 'B'));
    h.clock.t += 1;
    h.evaluator.onOpportunity(event(0.2, 'A'));
    h.evaluator.onOpportunity(event(0.2, 'C'));
    h.evaluator.onOpportunity(event(0.9, 'C'));
    h.clock.t += 300_000;
    h.evaluator.onOpportunity(event(0.29, 'C'));
    h.evaluator.onOpportunity(event(0.3, 'C'));
    await h.evaluator.settled();
    expect(h.recorded.map((f) => [f.route, f.memory.value, f.memory.episode])).toEqual([
      ['BTC-USDT binance->okx', 0.2, 'A'],
      // At exactly 300,000 ms: the same opening A at the same spread stays quiet; a new opening C fires.
      ['BTC-USDT binance->okx', 0.2, 'C'],
      // 0.9 right after is inside the new cool-down. A cool-down later, same opening C: 0.29 is under
      // 0.2 + 0.1 and stays quiet; 0.3 is exactly half again and fires.
      ['BTC-USDT binance->okx', 0.3, 'C'],
    ]);
    expect(h.wakes()).toBeGreaterThan(0);
  });

  it('a deleted rule leaves no memory behind at the next reload; a disabled one keeps its own', async () => {
    const rules = [rule('gone', {}), rule('paused', {})];
    const h = harness(rules);
    await h.evaluator.reload();
    h.evaluator.onOpportunity(event(0.2, 'A'));
    expect(h.evaluator.memoryCount).toBe(2);
    rules.splice(0, 1);
    rules[0].enabled = false;
    await h.evaluator.reload();
    expect(h.evaluator.memoryCount).toBe(1);
  });

  it('another route of the same rule has its own cool-down', async () => {
    const h = harness([rule('r1', {})]);
    await h.evaluator.reload();
    h.evaluator.onOpportunity(event(0.2, 'A'));
    h.evaluator.onOpportunity(event(0.2, 'A', { sellExchange: 'bybit' }));
    h.evaluator.onOpportunity(event(0.2, 'A'));
    await h.evaluator.settled();
    expect(h.recorded.map((f) => f.route)).toEqual(['BTC-USDT binance->okx', 'BTC-USDT binance->bybit']);
  });

  it('rules that do not match the event do not fire (filters as the stream has them)', async () => {
    const h = harness([rule('eth', { tickers: ['ETH-USDT'] }), rule('high', { minProfit: 2 }), rule('net', { minNetProfit: 0.5 })]);
    await h.evaluator.reload();
    h.evaluator.onOpportunity(event(0.4, 'A'));
    await h.evaluator.settled();
    expect(h.recorded).toEqual([]);
  });

  it('1,000 rules over 3 distinct conditions cost 3 condition tests per event', async () => {
    const conditions = [{ minProfit: 0.5 }, { minProfit: 0.5, tickers: ['BTC-USDT'] }, { tickers: ['ETH-USDT'] }];
    const rules = Array.from({ length: 1000 }, (_, i) => rule(`r${i}`, conditions[i % 3]));
    const h = harness(rules);
    await h.evaluator.reload();
    expect(h.evaluator.ruleIndex.groupCount).toBe(3);
    h.evaluator.onOpportunity(event(0.2, 'A'));
    expect(h.evaluator.ruleIndex.tests).toBe(3);
    await h.evaluator.settled();
    // Rules 0, 3, … (334) and 1, 4, … (333) match BTC; ETH's 333 do not.
    expect(h.recorded).toHaveLength(667);
  });
});

describe('AlertEvaluatorService: size and minSize, where depth exists', () => {
  // One level of 5 at 100 to buy (500 USDT) against 100 at 102 to sell, no fees, no transfer fee:
  // every notional up to 500 USDT nets exactly 2 %; past it the next ask (110) loses money.
  const inputs: SizeInputs = { asks: [[100, 5], [110, 100]], bids: [[102, 100]], buyFeePercent: 0, sellFeePercent: 0, withdrawalFee: 0, depthAgeMs: 0 };
  const REFERENCE = 1000;

  it('minSize tests the depth the rule prices; size prices the note at the rule\'s notional; an unknown depth never passes minSize', async () => {
    const h = harness([
      rule('deep', { minSize: 5000 }), rule('shallow', { minSize: 500 }), rule('at100', { size: 100, minSize: 100, minNetProfit: 1.5 }), rule('any', {}),
    ]);
    await h.evaluator.reload();
    const published = event(2, 'A', { size: sizeOf(inputs, REFERENCE, 0) });
    const pricings = new EventPricings(1, published, null, inputs, REFERENCE);
    h.evaluator.onOpportunity(published, (filter) => pricings.for(filter).event);
    h.evaluator.onOpportunity(event(0.2, 'B', { buyExchange: 'bybit' }), (filter) => new EventPricings(2, event(0.2, 'B', { buyExchange: 'bybit' }), null, undefined, REFERENCE).for(filter).event);
    await h.evaluator.settled();
    // The published maxSizeUsdt (net ≥ 0) is between 500 and 5000: 'shallow' passes, 'deep' does not.
    expect(published.size?.maxSizeUsdt).toBeGreaterThanOrEqual(500);
    expect(published.size?.maxSizeUsdt).toBeLessThan(5000);
    expect(h.recorded.map((f) => `${f.ruleName} ${f.route}`)).toEqual([
      'shallow BTC-USDT binance->okx', 'at100 BTC-USDT binance->okx', 'any BTC-USDT binance->okx',
      // No books for bybit->okx: only the rule without a size condition fires.
      'any BTC-USDT bybit->okx',
    ]);
    const at100 = h.recorded[1].message;
    expect(at100.data).toMatchObject({ sizeNotionalUsdt: 100, sizeNetPercent: 2 });
    expect(at100.text).toContain('At 100 USDT: net 2%; depth up to ');
    expect(h.recorded[3].message.data).toMatchObject({ sizeNotionalUsdt: null, maxSizeUsdt: null });
  });
});

describe('AlertEvaluatorService: funding and feed rules', () => {
  const observation = (rate: number): FundingObservation => ({
    exchange: 'okx', contract: 'BTC-USDT-SWAP', symbol: 'BTC-USDT', fundingRate: rate, intervalSeconds: 28_800, intervalSource: 'exchange',
    nextFundingTime: null, spotPrice: null, markPrice: null, updatedAt: 0,
  });

  it('fires when |APR| crosses the threshold, not again while it stays above, again after falling below and the cool-down', async () => {
    const h = harness([rule('f', { minAbsApr: 30 }, { kind: 'funding', cooldownSeconds: 60 })]);
    await h.evaluator.reload();
    // 0.0002 per 8 h × 1095 × 100 = 21.9 % APR: under 30. −0.0003 → −32.85 %: |APR| above.
    h.evaluator.onFunding({ observations: [observation(0.0002)], at: h.clock.t });
    h.evaluator.onFunding({ observations: [observation(-0.0003)], at: h.clock.t });
    h.clock.t += 60_000;
    h.evaluator.onFunding({ observations: [observation(-0.0003)], at: h.clock.t });
    h.evaluator.onFunding({ observations: [observation(0.0001)], at: h.clock.t });
    h.evaluator.onFunding({ observations: [observation(0.0003)], at: h.clock.t + 1 });
    await h.evaluator.settled();
    expect(h.recorded.map((f) => [f.route, f.memory.value])).toEqual([['BTC-USDT okx', 32.85], ['BTC-USDT okx', 32.85]]);
    expect(h.recorded[0].message.text).toContain('BTC-USDT on okx: funding APR -32.85%');
  });

  it('a rule with only an APR threshold ignores interval changes; one with onIntervalChange ignores the APR', async () => {
    const h = harness([
      rule('apr', { minAbsApr: 30 }, { kind: 'funding' }),
      rule('change', { onIntervalChange: true, exchanges: ['okx'] }, { kind: 'funding', cooldownSeconds: 60 }),
    ]);
    await h.evaluator.reload();
    h.evaluator.onFunding({ observations: [observation(-0.0003)], at: h.clock.t });
    h.evaluator.onIntervalChange({ exchange: 'okx', ticker: 'BTC-USDT', at: h.clock.t, fromHours: 8, toHours: 4 });
    await h.evaluator.settled();
    expect(h.recorded.map((f) => [f.ruleName, f.message.event])).toEqual([['apr', 'funding'], ['change', 'funding-interval']]);
  });

  it('interval change: once per change of a (ticker, exchange), again for a later change after the cool-down; an old or excluded one never', async () => {
    const h = harness([rule('change', { onIntervalChange: true, exchanges: ['okx'] }, { kind: 'funding', cooldownSeconds: 60 })]);
    await h.evaluator.reload();
    const change = (at: number, fromHours: number, toHours: number, exchange = 'okx') => ({ exchange: exchange as 'okx', ticker: 'BTC-USDT', at, fromHours, toHours });
    const t0 = h.clock.t;
    h.evaluator.onIntervalChange(change(t0, 8, 4));
    h.evaluator.onIntervalChange(change(t0, 8, 4));
    h.evaluator.onIntervalChange(change(t0, 8, 4, 'binance'));
    // A backfill finding a change more than a day before now: history, not news.
    h.evaluator.onIntervalChange({ ...change(t0 - 24 * 3_600_000 - 1, 8, 4), ticker: 'ETH-USDT' });
    h.clock.t += 59_999;
    h.evaluator.onIntervalChange(change(h.clock.t, 4, 1));
    h.clock.t += 1;
    h.evaluator.onIntervalChange(change(h.clock.t, 4, 1));
    await h.evaluator.settled();
    expect(h.recorded.map((f) => [f.route, f.message.data.fromHours, f.message.data.toHours])).toEqual([
      ['BTC-USDT okx interval', 8, 4],
      ['BTC-USDT okx interval', 4, 1],
    ]);
    expect(h.recorded[0].message.text).toBe(
      `BTC-USDT on okx: funding interval changed from 8 h to 4 h (${new Date(t0).toISOString()}); funding is now paid more often, so the same rate is worth a different APR.`,
    );
    expect(h.recorded[0].message).toMatchObject({ kind: 'funding', event: 'funding-interval' });
  });

  it('feed: down for more than the minutes, then recovered, once each', async () => {
    const health = { binance: { connected: true }, okx: { connected: false } };
    const h = harness([rule('feed', { minutes: 2, exchanges: ['okx'] }, { kind: 'feed' })], health);
    await h.evaluator.reload();
    h.evaluator.checkFeeds();
    h.clock.t += 120_000;
    h.evaluator.checkFeeds();
    h.clock.t += 1;
    h.evaluator.checkFeeds();
    h.evaluator.checkFeeds();
    health.okx.connected = true;
    h.evaluator.checkFeeds();
    h.evaluator.checkFeeds();
    await h.evaluator.settled();
    expect(h.recorded.map((f) => f.message.event)).toEqual(['feed-down', 'feed-recovered']);
    expect(h.recorded[0].message.text).toMatch(/^okx: market feed down for 2 min \(since /);
  });
});
