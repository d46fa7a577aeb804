import { createHmac } from 'node:crypto';
import { filter, firstValueFrom } from 'rxjs';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertEvaluatorService } from '../../src/alerts/alert-evaluator.service.js';
import { FundingRatesService } from '../../src/funding-rates/funding-rates.service.js';
import { OpportunityStreamService } from '../../src/realtime/opportunity-stream.service.js';
import { startReceiver, type Receiver } from '../utils/alert-receivers.js';
import { startMarketFixture, type MarketFixture, type SimQuote } from '../utils/market-fixture.js';
import { until } from '../utils/wait.js';

const EXCHANGES = ['binance', 'okx'];
const SECRET = 'whsec_delivery_secret_Kq9w';
const BOT_TOKEN = '987654321:AAF-delivery-bot-token-xyzxyzT0k3';
const TICKERS = ['BTC-USDT', 'ETH-USDT', 'SOL-USDT', 'XRP-USDT', 'DOGE-USDT', 'ADA-USDT'];

/** binance asks `ask`, okx bids `bid`: a route binance → okx. */
const spread = (ticker: string, ask: number, bid: number): SimQuote[] => [
  { exchange: 'binance', market: 'SPOT', ticker, bid: ask - 0.01, ask },
  { exchange: 'okx', market: 'SPOT', ticker, bid, ask: bid + 0.01 },
];

interface Delivery { id: string; status: string; attempts: number; lastError: string | null; route: string; text: string; channel: string }

/**
 * Alerts end to end: the simulator moves prices, the opportunity stream detects a route, a rule
 * fires, and the notification reaches real local HTTP receivers (webhook, fake Telegram Bot API,
 * fake Discord webhook) with the retry rules.
 */
describe('alert delivery to webhook, Telegram and Discord receivers', () => {
  let m: MarketFixture;
  let hook: Receiver;
  let quiet: Receiver;
  let flaky: Receiver;
  let limited: Receiver;
  let telegram: Receiver;
  let discord: Receiver;

  beforeAll(async () => {
    hook = await startReceiver();
    quiet = await startReceiver();
    flaky = await startReceiver([{ status: 500 }, { status: 200 }]);
    limited = await startReceiver([{ status: 429, headers: { 'Retry-After': '2' } }, { status: 200 }]);
    telegram = await startReceiver([
      { status: 429, body: JSON.stringify({ ok: false, error_code: 429, description: 'Too Many Requests', parameters: { retry_after: 1 } }) },
      { status: 200 },
    ]);
    discord = await startReceiver();
    m = await startMarketFixture(EXCHANGES, TICKERS, {
      TELEGRAM_API_URL: telegram.url,
      // Every receiver is on 127.0.0.1 over http (rules: outbound-targets).
      ALERT_TARGETS_ALLOW_PRIVATE: '1',
      ALERT_RETRY_BASE_MS: '100',
      ALERT_SEND_INTERVAL_MS: '100',
      FUNDING_REFRESH_MS: '500',
    });
    await m.waitConnected();
  });
  afterAll(async () => {
    await m?.close();
    await Promise.all([hook, quiet, flaky, limited, telegram, discord].map((r) => r?.close()));
  });

  const rule = (email: string, tickers: string[], channel: object, extra: object = {}) =>
    request(m.app.baseUrl).post('/v1/alerts/rules')
      .send({ email, name: `rule ${tickers.join(',')}`, kind: 'opportunity', condition: { tickers, minProfit: 0.5 }, channel, ...extra })
      .expect(201);
  const deliveries = async (email: string): Promise<Delivery[]> =>
    (await request(m.app.baseUrl).get('/v1/alerts/deliveries').query({ email }).expect(200)).body as Delivery[];

  it('fires on the matching route only, signed, with a timestamp and an idempotency key; retries and Retry-After as promised', async () => {
    await rule('hook@example.com', ['BTC-USDT'], { type: 'webhook', url: `${hook.url}/in`, secret: SECRET });
    await rule('hook@example.com', ['ETH-USDT'], { type: 'webhook', url: `${quiet.url}/in`, secret: SECRET });
    await rule('flaky@example.com', ['SOL-USDT'], { type: 'webhook', url: flaky.url });
    await rule('limited@example.com', ['XRP-USDT'], { type: 'webhook', url: limited.url });
    await rule('tg@example.com', ['DOGE-USDT'], { type: 'telegram', botToken: BOT_TOKEN, chatId: '-100123' });
    await rule('dc@example.com', ['ADA-USDT'], { type: 'discord', webhookUrl: `${discord.url}/api/webhooks/1/discord-secret-path` });
    await m.app.app.get(AlertEvaluatorService).reload();

    // BTC: gross (101 − 100) ÷ 100 = 1 % ≥ 0.5. ETH moves 0.3 % only: under its rule's 0.5.
    await m.putQuotes([
      ...spread('BTC-USDT', 100, 101), ...spread('ETH-USDT', 3000, 3009), ...spread('SOL-USDT', 150, 151.5),
      ...spread('XRP-USDT', 2, 2.02), ...spread('DOGE-USDT', 0.2, 0.202), ...spread('ADA-USDT', 1, 1.01),
    ]);

    await until(() => hook.received.length, (n) => n >= 1, 10_000);
    const [first] = hook.received;
    expect(first.path).toBe('/in');
    expect(first.headers['x-signature']).toBe(`sha256=${createHmac('sha256', SECRET).update(first.body).digest('hex')}`);
    const sentAt = Number(first.headers['x-signature-timestamp']);
    expect(Math.abs(sentAt - Date.now() / 1000)).toBeLessThan(30);
    const body = JSON.parse(first.body) as { id: string; text: string; data: Record<string, unknown>; sentAt: number };
    expect(first.headers['idempotency-key']).toBe(body.id);
    expect(body.sentAt).toBe(sentAt);
    expect(body.data).toMatchObject({ ticker: 'BTC-USDT', buyExchange: 'binance', sellExchange: 'okx', grossPercent: 1 });
    expect(body.text).toMatch(/^BTC-USDT: buy on binance at 100, sell on okx at 101\. Gross 1%, net .*lifetimes\?ticker=BTC-USDT&buy=binance&sell=okx/);

    // 500 then 200: delivered once, on the second attempt, with the same key.
    await until(() => flaky.accepted().length, (n) => n === 1, 10_000);
    expect(flaky.received.map((r) => r.status)).toEqual([500, 200]);
    expect(new Set(flaky.received.map((r) => r.headers['idempotency-key'])).size).toBe(1);

    // 429 with Retry-After: 2 → the next attempt no sooner than 2 s later.
    await until(() => limited.accepted().length, (n) => n === 1, 15_000);
    expect(limited.received[1].at - limited.received[0].at).toBeGreaterThanOrEqual(1900);

    // Telegram: sendMessage under /bot<token>/, 429 with parameters.retry_after 1 honoured.
    await until(() => telegram.accepted().length, (n) => n === 1, 15_000);
    expect(telegram.received[0].path).toBe(`/bot${BOT_TOKEN}/sendMessage`);
    expect(JSON.parse(telegram.received[1].body)).toMatchObject({ chat_id: '-100123', text: expect.stringContaining('DOGE-USDT: buy on binance') });
    expect(telegram.received[1].at - telegram.received[0].at).toBeGreaterThanOrEqual(900);

    // Discord: the note as content.
    await until(() => discord.received.length, (n) => n >= 1, 10_000);
    expect(discord.received[0].path).toBe('/api/webhooks/1/discord-secret-path');
    expect(JSON.parse(discord.received[0].body)).toMatchObject({ content: expect.stringContaining('ADA-USDT: buy on binance') });

    expect(quiet.received).toEqual([]);

    // Deliveries: status, attempts and the last error; no secret in the answers.
    const flakyList = await until(() => deliveries('flaky@example.com'), (d) => d[0]?.status === 'delivered', 5_000);
    expect(flakyList).toEqual([expect.objectContaining({ status: 'delivered', attempts: 2, lastError: null, route: 'SOL-USDT binance->okx', channel: 'webhook' })]);
    const tgList = await until(() => deliveries('tg@example.com'), (d) => d[0]?.status === 'delivered', 5_000);
    expect(tgList[0]).toMatchObject({ attempts: 2, channel: 'telegram' });
    const all = JSON.stringify([tgList, await deliveries('dc@example.com'), await deliveries('hook@example.com')]);
    for (const secret of [SECRET, BOT_TOKEN, 'discord-secret-path']) expect(all).not.toContain(secret);

    // Metrics.
    const metrics = (await request(m.app.baseUrl).get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/alerts_fired_total\{kind="opportunity"\} [5-9]/);
    expect(metrics).toMatch(/alerts_delivered_total\{channel="webhook"\} [3-9]/);
    expect(metrics).toMatch(/alerts_failed_total\{channel="telegram",final="false"\} 1/);
    expect(metrics).toMatch(/alerts_delivery_latency_seconds_count\{channel="discord"\} 1/);
  });

  it('cool-down: the same open route, its spread up by less than half, notifies nothing more', async () => {
    const stream = m.app.app.get(OpportunityStreamService);
    const evaluator = m.app.app.get(AlertEvaluatorService);
    expect(await deliveries('hook@example.com')).toHaveLength(1);
    // Gross 1 % → 1.2 %: the net rises by far less than half again; the route stays open.
    const seen = firstValueFrom(stream.published.pipe(filter((p) => p.event.ticker === 'BTC-USDT' && p.event.profitPercentAskBid >= 1.2)));
    await m.putQuotes(spread('BTC-USDT', 100, 101.2));
    await seen;
    await evaluator.settled();
    expect(await deliveries('hook@example.com')).toHaveLength(1);
  });

  it('a notification still failing 24 h after its firing is given up and its rule disabled, as deliveries and the rule say', async () => {
    const down = await startReceiver([{ status: 500 }]);
    try {
      const created = await rule('down@example.com', ['LTC-USDT'], { type: 'webhook', url: down.url });
      const ruleId = (created.body as { id: string }).id;
      // A firing recorded a day (and a second) ago whose retries all failed: the next attempt is the last.
      await m.app.app.get(DataSource).query(
        `INSERT INTO alert_outbox (id, rule_id, email, rule_name, channel_type, route, message, attempts, created_at, next_attempt_at)
         VALUES (gen_random_uuid(), $1, 'down@example.com', 'rule LTC-USDT', 'webhook', 'LTC-USDT binance->okx', $2, 30, $3, now())`,
        [ruleId, JSON.stringify({ kind: 'opportunity', event: 'opportunity', ruleName: 'x', text: 'LTC-USDT note', data: {}, firedAt: '' }), new Date(Date.now() - 86_401_000)],
      );
      const [failed] = await until(() => deliveries('down@example.com'), (d) => d[0]?.status === 'failed', 10_000);
      expect(failed).toMatchObject({ attempts: 31, lastError: 'HTTP 500; channel failing for 24 h: rule disabled' });
      expect(down.received).toHaveLength(1);
      const after = await request(m.app.baseUrl).get(`/v1/alerts/rules/${ruleId}`).query({ email: 'down@example.com' }).expect(200);
      expect(after.body).toMatchObject({ enabled: false, disabledReason: 'channel failing for 24 h: rule disabled (last error: HTTP 500)' });
      const back = await request(m.app.baseUrl).patch(`/v1/alerts/rules/${ruleId}`).query({ email: 'down@example.com' }).send({ enabled: true }).expect(200);
      expect(back.body).toMatchObject({ enabled: true, disabledReason: null });
    } finally {
      await down.close();
    }
  });

  it('a funding rule fires when a collection puts |APR| at or above its threshold', async () => {
    const funding = await startReceiver();
    try {
      await request(m.app.baseUrl).post('/v1/alerts/rules').send({
        email: 'funding@example.com', name: 'funding', kind: 'funding', condition: { minAbsApr: 50, exchanges: ['okx'], tickers: ['ETH-USDT'] },
        channel: { type: 'webhook', url: funding.url },
      }).expect(201);
      await m.app.app.get(AlertEvaluatorService).reload();
      // −0.0005 per 8 h: × 3 × 365 × 100 = −54.75 % APR; |APR| ≥ 50.
      const res = await fetch(`${m.sim.url}/_sim/funding`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify([{ exchange: 'okx', ticker: 'ETH-USDT', fundingRate: -0.0005, intervalHours: 8 }]),
      });
      expect(res.status).toBe(200);
      await until(() => funding.received.length, (n) => n >= 1, 15_000);
      const body = JSON.parse(funding.received[0].body) as { kind: string; text: string; data: Record<string, unknown> };
      expect(body).toMatchObject({ kind: 'funding', data: { exchange: 'okx', ticker: 'ETH-USDT', aprPercent: -54.75, minAbsApr: 50 } });
      expect(body.text).toMatch(/^ETH-USDT on okx: funding APR -54\.75% \(\|APR\| ≥ 50%\), shorts pay longs/);
    } finally {
      await funding.close();
    }
  });

  it('a funding rule with onIntervalChange fires once when the venue moves a perpetual from 8 h to 4 h', async () => {
    const changes = await startReceiver();
    const collectors = m.app.app.get(FundingRatesService);
    const setInterval = async (intervalHours: number): Promise<void> => {
      const seen = firstValueFrom(collectors.collected.pipe(filter(({ observations }) =>
        observations.some((o) => o.exchange === 'okx' && o.symbol === 'SOL-USDT' && o.intervalSeconds === intervalHours * 3600))));
      const res = await fetch(`${m.sim.url}/_sim/funding`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify([{ exchange: 'okx', ticker: 'SOL-USDT', fundingRate: 0.0001, intervalHours }]),
      });
      expect(res.status).toBe(200);
      await seen;
    };
    try {
      await setInterval(8);
      await request(m.app.baseUrl).post('/v1/alerts/rules').send({
        email: 'interval@example.com', name: 'interval', kind: 'funding', condition: { onIntervalChange: true, exchanges: ['okx'], tickers: ['SOL-USDT'] },
        channel: { type: 'webhook', url: changes.url },
      }).expect(201);
      await m.app.app.get(AlertEvaluatorService).reload();
      await setInterval(4);
      await until(() => changes.received.length, (n) => n >= 1, 15_000);
      // Further collections at 4 h are no change: still one notification.
      await setInterval(4);
      await m.app.app.get(AlertEvaluatorService).settled();
      expect(changes.received).toHaveLength(1);
      const body = JSON.parse(changes.received[0].body) as { kind: string; text: string; data: Record<string, unknown> };
      expect(body).toMatchObject({ kind: 'funding', data: { exchange: 'okx', ticker: 'SOL-USDT', fromHours: 8, toHours: 4 } });
      expect(body.text).toMatch(/^SOL-USDT on okx: funding interval changed from 8 h to 4 h /);
      const funding = (await request(m.app.baseUrl).get('/v1/funding-rates').query({ exchange: 'okx', ticker: 'SOL-USDT' }).expect(200)).body as { data: { ticker?: string; symbol?: string; intervalChangedAt: string | null }[] };
      expect(funding.data.some((e) => e.intervalChangedAt !== null)).toBe(true);
    } finally {
      await changes.close();
    }
  });
});
