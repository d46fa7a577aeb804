import request from 'supertest';
import { DataSource, type QueryRunner } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateAlerts1764900000000 } from '../../src/database/migrations/1764900000000-create-alerts.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';

const SECRET = 'whsec_top_secret_value_7Q2x';
const BOT_TOKEN = '123456789:AAE-secret-token-abcdefghijk9Zz1';
const DISCORD = 'https://discord.example/api/webhooks/1234/discord-token-xyz-Dd77';

/** Alert rules: CRUD owned by an email, validation texts, the 50-rule cap, masked secrets, the migration. */
describe('alert rules CRUD', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Rules here point at 127.0.0.1 over http; test/e2e/alerts-targets covers the default (rules: outbound-targets).
    t = await startTestApp({ EXCHANGES: 'binance,okx,bybit', ALERT_TARGETS_ALLOW_PRIVATE: '1' });
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (body: object) => request(t.baseUrl).post('/v1/alerts/rules').send(body);
  const bad = (message: string) => ({ statusCode: 400, message, error: 'Bad Request' });
  const webhook = { type: 'webhook', url: 'http://127.0.0.1:9/hook', secret: SECRET };
  const valid = { email: 'a@example.com', name: 'BTC', kind: 'opportunity', condition: { minProfit: 0.3, tickers: ['btcusdt'] }, channel: webhook };

  it('201 with the canonical condition, default cool-down, enabled, and the secret masked', async () => {
    const res = await post(valid).expect(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: 'a@example.com',
      name: 'BTC',
      kind: 'opportunity',
      condition: { minProfit: 0.3, tickers: ['BTC-USDT'] },
      channel: { type: 'webhook', url: 'http://127.0.0.1:9/hook', secret: '***7Q2x' },
      cooldownSeconds: 300,
      enabled: true,
      disabledReason: null,
      timestamp: expect.any(Number),
    });
  });

  it('telegram and discord secrets are masked in every answer (POST, GET list, GET one, PATCH)', async () => {
    const tg = await post({ ...valid, email: 'm@example.com', channel: { type: 'telegram', botToken: BOT_TOKEN, chatId: -1001 } }).expect(201);
    const dc = await post({ ...valid, email: 'm@example.com', channel: { type: 'discord', webhookUrl: DISCORD } }).expect(201);
    expect(tg.body.channel).toEqual({ type: 'telegram', botToken: '***9Zz1', chatId: '-1001' });
    expect(dc.body.channel).toEqual({ type: 'discord', webhookUrl: '***Dd77' });
    const answers = [
      tg.text, dc.text,
      (await request(t.baseUrl).get('/v1/alerts/rules').query({ email: 'm@example.com' }).expect(200)).text,
      (await request(t.baseUrl).get(`/v1/alerts/rules/${tg.body.id}`).query({ email: 'm@example.com' }).expect(200)).text,
      (await request(t.baseUrl).patch(`/v1/alerts/rules/${dc.body.id}`).query({ email: 'm@example.com' }).send({ name: 'x' }).expect(200)).text,
    ];
    for (const text of answers) {
      for (const secret of [BOT_TOKEN, 'secret-token', DISCORD, 'discord-token']) expect(text).not.toContain(secret);
    }
  });

  it.each([
    [{ ...valid, email: undefined }, 'email is required'],
    [{ ...valid, email: 'nope' }, 'email is invalid'],
    [{ ...valid, name: undefined }, 'name is required'],
    [{ ...valid, name: 'x'.repeat(101) }, 'name must be a string of at most 100 characters'],
    [{ ...valid, kind: 'price' }, 'kind must be one of opportunity, funding, feed'],
    [{ ...valid, channel: undefined }, 'channel is required'],
    [{ ...valid, cooldownSeconds: 9 }, 'cooldownSeconds must be an integer from 10 to 86400'],
    [{ ...valid, cooldownSeconds: 86_401 }, 'cooldownSeconds must be an integer from 10 to 86400'],
    [{ ...valid, enabled: 'yes' }, 'enabled must be true or false'],
    [{ ...valid, condition: [] }, 'condition must be an object'],
    [{ ...valid, condition: { minProfit: 101 } }, 'minProfit must be a number from 0 to 100'],
    [{ ...valid, condition: { minNetProfit: 'a' } }, 'minNetProfit must be a number from -100 to 100'],
    [{ ...valid, condition: { exchanges: ['gate'] } }, 'exchanges must be a comma list of binance, okx, bybit'],
    [{ ...valid, condition: { exchanges: ['okx'] } }, 'exchanges must name at least two exchanges: a route buys on one and sells on another'],
    [{ ...valid, condition: { tickers: ['??'] } }, 'tickers must be a comma list of at most 100 tickers such as BTC-USDT'],
    [{ ...valid, condition: { size: 5 } }, 'size must be a number from 10 to 10000000'],
    [{ ...valid, condition: { minSize: -1 } }, 'minSize must be a number from 0 to 10000000'],
    [{ ...valid, condition: { minAbsApr: 5 } }, 'condition.minAbsApr is not a opportunity condition (allowed: minProfit, minNetProfit, transferable, exchanges, tickers, size, minSize)'],
    [{ ...valid, kind: 'funding', condition: {} }, 'condition.minAbsApr is required unless condition.onIntervalChange is true'],
    [{ ...valid, kind: 'funding', condition: { onIntervalChange: false } }, 'condition.minAbsApr is required unless condition.onIntervalChange is true'],
    [{ ...valid, kind: 'funding', condition: { onIntervalChange: 'yes' } }, 'condition.onIntervalChange must be true or false'],
    [{ ...valid, kind: 'funding', condition: { minAbsApr: -1 } }, 'condition.minAbsApr must be a number from 0 to 100000'],
    [{ ...valid, kind: 'feed', condition: { minutes: 0 } }, 'condition.minutes must be an integer from 1 to 1440'],
    [{ ...valid, channel: 'x' }, 'channel must be an object'],
    [{ ...valid, channel: { type: 'email' } }, 'channel.type must be webhook, telegram or discord'],
    [{ ...valid, channel: { type: 'webhook', url: 'ftp://x' } }, 'channel.url must be an http or https URL'],
    [{ ...valid, channel: { type: 'webhook', url: 'http://x', secret: '' } }, 'channel.secret must be a string of 1 to 256 characters'],
    [{ ...valid, channel: { type: 'telegram', botToken: 'abc', chatId: 1 } }, 'channel.botToken must be a Telegram bot token (digits, a colon, then the token)'],
    [{ ...valid, channel: { type: 'telegram', botToken: BOT_TOKEN, chatId: 'x y' } }, 'channel.chatId must be an integer chat id or an @channel name'],
    [{ ...valid, channel: { type: 'discord', webhookUrl: 'nope' } }, 'channel.webhookUrl must be an http or https URL'],
  ])('400 for %j: %s', async (body, message) => {
    const res = await post(body as object).expect(400);
    expect(res.body).toEqual(bad(message));
  });

  it('a telegram token in a refused body never comes back in the error', async () => {
    const res = await post({ ...valid, channel: { type: 'telegram', botToken: BOT_TOKEN, chatId: 'x y' } }).expect(400);
    expect(res.text).not.toContain(BOT_TOKEN);
  });

  it('funding (APR, interval changes), sized opportunity and feed rules store their canonical conditions (feed minutes default 2)', async () => {
    const funding = await post({ ...valid, kind: 'funding', condition: { minAbsApr: 25, exchanges: ['OKX', 'binance'] } }).expect(201);
    expect(funding.body.condition).toEqual({ minAbsApr: 25, exchanges: ['binance', 'okx'] });
    const change = await post({ ...valid, kind: 'funding', condition: { onIntervalChange: true, tickers: ['solusdt'] } }).expect(201);
    expect(change.body.condition).toEqual({ onIntervalChange: true, tickers: ['SOL-USDT'] });
    const sized = await post({ ...valid, condition: { size: 5000, minSize: 2000, minNetProfit: 0.1 } }).expect(201);
    expect(sized.body.condition).toEqual({ minNetProfit: 0.1, size: 5000, minSize: 2000 });
    const feed = await post({ ...valid, kind: 'feed', condition: undefined, cooldownSeconds: 10 }).expect(201);
    expect(feed.body.condition).toEqual({ minutes: 2 });
    expect(feed.body.cooldownSeconds).toBe(10);
  });

  it('at most 50 rules per email: the 51st is a 400, other emails are not affected', async () => {
    const email = 'cap@example.com';
    for (let i = 0; i < 50; i++) await post({ ...valid, email, name: `r${i}` }).expect(201);
    expect((await post({ ...valid, email }).expect(400)).body).toEqual(bad('at most 50 alert rules per email'));
    await post({ ...valid, email: 'other@example.com' }).expect(201);
    const list = await request(t.baseUrl).get('/v1/alerts/rules').query({ email }).expect(200);
    expect(list.body).toHaveLength(50);
  });

  it('GET/PATCH/DELETE are scoped to the owner; another email gets 404', async () => {
    const created = (await post({ ...valid, email: 'own@example.com' }).expect(201)).body as { id: string };
    const path = `/v1/alerts/rules/${created.id}`;
    const notFound = { statusCode: 404, message: 'alert rule not found', error: 'Not Found' };
    expect((await request(t.baseUrl).get(path).query({ email: 'thief@example.com' }).expect(404)).body).toEqual(notFound);
    await request(t.baseUrl).patch(path).query({ email: 'thief@example.com' }).send({ name: 'x' }).expect(404);
    await request(t.baseUrl).delete(path).query({ email: 'thief@example.com' }).expect(404);
    const patched = await request(t.baseUrl).patch(path).query({ email: 'own@example.com' })
      .send({ cooldownSeconds: 60, enabled: false, condition: { minNetProfit: 0.05 } }).expect(200);
    expect(patched.body).toMatchObject({ cooldownSeconds: 60, enabled: false, condition: { minNetProfit: 0.05 } });
    expect((await request(t.baseUrl).patch(path).query({ email: 'own@example.com' }).send({ kind: 'funding' }).expect(400)).body)
      .toEqual(bad('condition is required when kind changes'));
    await request(t.baseUrl).delete(path).query({ email: 'own@example.com' }).expect(204);
    await request(t.baseUrl).get(path).query({ email: 'own@example.com' }).expect(404);
    await request(t.baseUrl).get('/v1/alerts/rules/not-a-uuid').query({ email: 'own@example.com' }).expect(404);
  });

  it('the owner parameter is required on listings', async () => {
    expect((await request(t.baseUrl).get('/v1/alerts/rules').expect(400)).body).toEqual(bad('email parameter is required'));
    expect((await request(t.baseUrl).get('/v1/alerts/deliveries').expect(400)).body).toEqual(bad('email parameter is required'));
    expect((await request(t.baseUrl).get('/v1/alerts/deliveries').query({ email: 'nobody@example.com' }).expect(200)).body).toEqual([]);
  });

  it('the migration reverts and re-applies', async () => {
    const migration = new CreateAlerts1764900000000();
    const step = async (run: (r: QueryRunner) => Promise<unknown>) => {
      const runner = t.app.get(DataSource).createQueryRunner();
      try {
        return await run(runner);
      } finally {
        await runner.release();
      }
    };
    await step((r) => migration.down(r));
    for (const table of ['alert_rules', 'alert_firings', 'alert_outbox']) expect(await step((r) => r.hasTable(table))).toBe(false);
    await step((r) => migration.up(r));
    for (const table of ['alert_rules', 'alert_firings', 'alert_outbox']) expect(await step((r) => r.hasTable(table))).toBe(true);
    await post({ ...valid, email: 'after@example.com' }).expect(201);
  });
});
