import { isIP } from 'node:net';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertSenderService } from '../../src/alerts/alert-sender.service.js';
import { AlertOutboxBlocked1765050000000 } from '../../src/database/migrations/1765050000000-alert-outbox-blocked.js';
import type { HostResolver } from '../../src/config/alerts-config.js';
import { startReceiver, type Receiver } from '../utils/alert-receivers.js';
import { freePort } from '../utils/service-process.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';

const HINT = 'alert targets must be public (ALERT_TARGETS_ALLOW_PRIVATE=1 allows private ones)';
const HTTPS = 'must be an https URL (http only with ALERT_TARGETS_ALLOW_PRIVATE=1)';
/** A public address the fake resolver may answer; no test connects to it (the target is refused first). */
const PUBLIC = '93.184.215.14';

interface Delivery { status: string; attempts: number; lastError: string | null }

/** A resolver the test answers: names it was told, else "not found" as the system's would say. */
function fakeResolver(): { names: Map<string, string[]>; resolveHost: HostResolver } {
  const names = new Map<string, string[]>();
  const resolveHost: HostResolver = (host) => {
    const addresses = names.get(host);
    if (!addresses) return Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }));
    return Promise.resolve(addresses.map((address) => ({ address, family: isIP(address) === 6 ? 6 : 4 })));
  };
  return { names, resolveHost };
}

const bad = (message: string) => ({ statusCode: 400, message, error: 'Bad Request' });
const rule = (channel: object, email = 'targets@example.com') =>
  ({ email, name: 'targets', kind: 'feed', condition: { minutes: 2 }, channel });

/** Notifies `ruleId` now, as a firing would, and runs one send round. */
async function fireAndSend(t: TestApp, ruleId: string, email: string): Promise<Delivery[]> {
  await t.app.get(DataSource).query(
    `INSERT INTO alert_outbox (id, rule_id, email, rule_name, channel_type, route, message, created_at, next_attempt_at)
     VALUES (gen_random_uuid(), $1, $2, 'targets', 'webhook', 'binance', $3, now(), now())`,
    [ruleId, email, JSON.stringify({ kind: 'feed', event: 'feed', ruleName: 'targets', text: 'binance feed down', data: {}, firedAt: '' })],
  );
  await t.app.get(AlertSenderService).flush();
  return (await request(t.baseUrl).get('/v1/alerts/deliveries').query({ email }).expect(200)).body as Delivery[];
}

/** rules: outbound-targets, by default: https to public addresses, judged at save and again at send. */
describe('alert targets with ALERT_TARGETS_ALLOW_PRIVATE off', () => {
  const dns = fakeResolver();
  let t: TestApp;
  let local: Receiver;
  beforeAll(async () => {
    local = await startReceiver();
    t = await startTestApp(
      { EXCHANGES: 'binance,okx', HISTORY_INTERVAL_MS: '0', CROSSING_JOB_ENABLED: '0', SAMPLE_INTERVAL_MS: '0' },
      (config) => ({ ...config, alerts: { ...config.alerts, resolveHost: dns.resolveHost } }),
    );
  });
  afterAll(async () => {
    await t?.close();
    await local?.close();
  });

  const post = (channel: object) => request(t.baseUrl).post('/v1/alerts/rules').send(rule(channel));

  it.each([
    ['https://127.0.0.1/hook', '127.0.0.1, a loopback'],
    ['https://127.255.0.9:8443/hook', '127.255.0.9, a loopback'],
    ['https://[::1]/hook', '::1, a loopback'],
    ['https://10.1.2.3/hook', '10.1.2.3, a private'],
    ['https://172.16.0.0/hook', '172.16.0.0, a private'],
    ['https://192.168.1.10/hook', '192.168.1.10, a private'],
    ['https://169.254.169.254/latest/meta-data', '169.254.169.254, a link-local'],
    ['https://[fe80::1]/hook', 'fe80::1, a link-local'],
    ['https://100.64.0.0/hook', '100.64.0.0, a carrier-grade NAT'],
    ['https://224.0.0.251/hook', '224.0.0.251, a multicast'],
    ['https://[ff02::1]/hook', 'ff02::1, a multicast'],
    ['https://0.0.0.0/hook', '0.0.0.0, an unspecified'],
    ['https://[::]/hook', '::, an unspecified'],
    ['https://255.255.255.255/hook', '255.255.255.255, a broadcast'],
    // The URL parser writes a mapped address in hex: ::ffff:127.0.0.1 is ::ffff:7f00:1.
    ['https://[::ffff:127.0.0.1]/hook', '::ffff:7f00:1, a loopback'],
    ['https://[::ffff:192.168.0.1]/hook', '::ffff:c0a8:1, a private'],
    ['https://[fd00::1]/hook', 'fd00::1, a unique-local'],
    ['https://192.0.2.1/hook', '192.0.2.1, a documentation'],
    ['https://240.0.0.1/hook', '240.0.0.1, a reserved'],
    // Written in decimal, the URL parser reads 2130706433 as 127.0.0.1.
    ['https://2130706433/hook', '127.0.0.1, a loopback'],
  ])('refuses %s at save: 400 naming the address and its class', async (url, what) => {
    const res = await post({ type: 'webhook', url }).expect(400);
    expect(res.body).toEqual(bad(`channel.url resolves to ${what} address: ${HINT}`));
  });

  it('refuses a name that resolves to 127.0.0.1, and one with a single private address among public ones', async () => {
    dns.names.set('hooks.lan.test', ['127.0.0.1']);
    dns.names.set('mixed.test', [PUBLIC, '2606:4700::1', '10.0.0.7']);
    expect((await post({ type: 'webhook', url: 'https://hooks.lan.test/in' }).expect(400)).body)
      .toEqual(bad(`channel.url resolves to 127.0.0.1, a loopback address: ${HINT}`));
    expect((await post({ type: 'webhook', url: 'https://mixed.test/in' }).expect(400)).body)
      .toEqual(bad(`channel.url resolves to 10.0.0.7, a private address: ${HINT}`));
  });

  it('refuses http, and a Discord URL the same way without echoing its token', async () => {
    dns.names.set('hooks.public.test', [PUBLIC]);
    expect((await post({ type: 'webhook', url: 'http://hooks.public.test/in' }).expect(400)).body).toEqual(bad(`channel.url ${HTTPS}`));
    const discord = await post({ type: 'discord', webhookUrl: 'https://[::1]/api/webhooks/1/discord-token-Qx7' }).expect(400);
    expect(discord.body).toEqual(bad(`channel.webhookUrl resolves to ::1, a loopback address: ${HINT}`));
    expect(discord.text).not.toContain('discord-token');
    expect((await post({ type: 'discord', webhookUrl: 'http://hooks.public.test/api/webhooks/1/x' }).expect(400)).body)
      .toEqual(bad(`channel.webhookUrl ${HTTPS}`));
  });

  it('accepts a public https target, and a name that does not resolve yet (judged again at send); PATCH is judged too', async () => {
    dns.names.set('hooks.public.test', [PUBLIC, '2606:4700::1']);
    const created = await post({ type: 'webhook', url: 'https://hooks.public.test/in' }).expect(201);
    await post({ type: 'webhook', url: 'https://not-yet.test/in' }).expect(201);
    const path = `/v1/alerts/rules/${(created.body as { id: string }).id}`;
    const patched = await request(t.baseUrl).patch(path).query({ email: 'targets@example.com' })
      .send({ channel: { type: 'webhook', url: 'https://169.254.169.254/' } }).expect(400);
    expect(patched.body).toEqual(bad(`channel.url resolves to 169.254.169.254, a link-local address: ${HINT}`));
    const kept = await request(t.baseUrl).get(path).query({ email: 'targets@example.com' }).expect(200);
    expect(kept.body).toMatchObject({ channel: { url: 'https://hooks.public.test/in' } });
  });

  it('a name that resolved publicly at save but privately at send is blocked: no connection, not retried', async () => {
    const email = 'rebind@example.com';
    const port = new URL(local.url).port;
    dns.names.set('rebind.test', [PUBLIC]);
    const created = await request(t.baseUrl).post('/v1/alerts/rules')
      .send(rule({ type: 'webhook', url: `https://rebind.test:${port}/in` }, email)).expect(201);
    dns.names.set('rebind.test', ['127.0.0.1']);
    const [delivery] = await fireAndSend(t, (created.body as { id: string }).id, email);
    expect(delivery).toMatchObject({ status: 'blocked', attempts: 1, lastError: `blocked: target resolves to 127.0.0.1, a loopback address: ${HINT}` });
    await t.app.get(AlertSenderService).flush();
    const again = (await request(t.baseUrl).get('/v1/alerts/deliveries').query({ email }).expect(200)).body as Delivery[];
    expect(again).toEqual([expect.objectContaining({ status: 'blocked', attempts: 1 })]);
    expect(local.connections).toBe(0);
  });

  it.each([
    ['loopback', '127.0.0.1', 'a loopback'],
    ['loopback-v6', '::1', 'a loopback'],
    ['private', '10.1.2.3', 'a private'],
    ['private-192', '192.168.1.10', 'a private'],
    ['metadata', '169.254.169.254', 'a link-local'],
    ['link-local-v6', 'fe80::1', 'a link-local'],
    ['cgnat', '100.64.0.1', 'a carrier-grade NAT'],
    ['multicast', '224.0.0.251', 'a multicast'],
    ['multicast-v6', 'ff02::1', 'a multicast'],
    ['unspecified', '0.0.0.0', 'an unspecified'],
    ['unspecified-v6', '::', 'an unspecified'],
    ['mapped', '::ffff:127.0.0.1', 'a loopback'],
    ['mapped-private', '::ffff:10.0.0.1', 'a private'],
    ['unique-local', 'fd00::1', 'a unique-local'],
  ])('at send, %s: a name saved public that now resolves to %s is blocked as %s address, with no connection', async (label, address, what) => {
    const email = `send-${label}@example.com`;
    const name = `send-${label}.test`;
    dns.names.set(name, [PUBLIC]);
    const created = await request(t.baseUrl).post('/v1/alerts/rules')
      .send(rule({ type: 'webhook', url: `https://${name}:${new URL(local.url).port}/in` }, email)).expect(201);
    dns.names.set(name, [address]);
    const [delivery] = await fireAndSend(t, (created.body as { id: string }).id, email);
    expect(delivery).toMatchObject({ status: 'blocked', attempts: 1, lastError: `blocked: target resolves to ${address}, ${what} address: ${HINT}` });
    expect(local.connections).toBe(0);
  });

  it('the blocked-status migration reverts (a blocked delivery reads failed) and re-applies', async () => {
    const migration = new AlertOutboxBlocked1765050000000();
    const runner = t.app.get(DataSource).createQueryRunner();
    try {
      await migration.down(runner);
      const statuses = (await runner.query('SELECT DISTINCT status FROM alert_outbox')) as { status: string }[];
      expect(statuses.map((r) => r.status)).not.toContain('blocked');
      await migration.up(runner);
    } finally {
      await runner.release();
    }
  });
});

/** rules: outbound-targets, on a trader's LAN: private targets allowed, yet redirects never followed. */
describe('alert targets with ALERT_TARGETS_ALLOW_PRIVATE=1', () => {
  const dns = fakeResolver();
  let t: TestApp;
  let first: Receiver;
  let second: Receiver;
  beforeAll(async () => {
    second = await startReceiver();
    first = await startReceiver([{ status: 302, headers: { Location: `${second.url}/elsewhere` }, body: 'moved: secret-answer-body' }]);
    t = await startTestApp(
      { EXCHANGES: 'binance,okx', HISTORY_INTERVAL_MS: '0', CROSSING_JOB_ENABLED: '0', SAMPLE_INTERVAL_MS: '0', ALERT_TARGETS_ALLOW_PRIVATE: '1' },
      (config) => ({ ...config, alerts: { ...config.alerts, resolveHost: dns.resolveHost } }),
    );
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([first, second].map((r) => r?.close()));
  });

  it('stores a loopback http target', async () => {
    await request(t.baseUrl).post('/v1/alerts/rules').send(rule({ type: 'webhook', url: 'http://127.0.0.1:9/hook' })).expect(201);
  });

  it('connects to the address judged, with the name as Host; a 302 is recorded, not followed', async () => {
    const email = 'redirect@example.com';
    dns.names.set('receiver.lan.test', ['127.0.0.1']);
    const created = await request(t.baseUrl).post('/v1/alerts/rules')
      .send(rule({ type: 'webhook', url: `http://receiver.lan.test:${new URL(first.url).port}/in` }, email)).expect(201);
    const [delivery] = await fireAndSend(t, (created.body as { id: string }).id, email);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, lastError: 'HTTP 302: redirect not followed' });
    expect(first.received).toHaveLength(1);
    expect(first.received[0].headers.host).toBe(`receiver.lan.test:${new URL(first.url).port}`);
    expect(second.connections).toBe(0);
  });

  it("lastError names the kind of failure, never the receiver's answer nor the address", async () => {
    const failing = await startReceiver([{ status: 503, body: '{"error":"receiver-detail-Qp7 at 10.9.8.7"}' }]);
    try {
      const cases = [
        { email: 'kind-503@example.com', url: `${failing.url}/in`, lastError: 'HTTP 503' },
        { email: 'kind-refused@example.com', url: `http://127.0.0.1:${await freePort()}/in`, lastError: 'refused' },
      ];
      for (const { email, url, lastError } of cases) {
        const created = await request(t.baseUrl).post('/v1/alerts/rules').send(rule({ type: 'webhook', url }, email)).expect(201);
        const deliveries = await fireAndSend(t, (created.body as { id: string }).id, email);
        expect(deliveries).toEqual([expect.objectContaining({ status: 'pending', attempts: 1, lastError })]);
        expect(JSON.stringify(deliveries)).not.toMatch(/receiver-detail|10\.9\.8\.7|127\.0\.0\.1|ECONNREFUSED/);
      }
      expect(failing.received).toHaveLength(1);
    } finally {
      await failing.close();
    }
  });
});
