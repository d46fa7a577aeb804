import { createHmac, randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { NestExpressApplication } from '@nestjs/platform-express';
import pg from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertOutboxRepository } from '../../src/alerts/alert-outbox.repository.js';
import { AlertSenderService } from '../../src/alerts/alert-sender.service.js';
import { createApp } from '../../src/app.factory.js';
import { startService } from '../../src/bootstrap.js';
import { freePort } from '../utils/service-process.js';
import { keyIdOf, Keyring, sealedKeyId } from '../../src/common/secrets/secret-box.js';
import { loadConfig } from '../../src/config/validate-env.js';
import { dataSourceOptions } from '../../src/database/database-options.js';
import { MIGRATIONS } from '../../src/database/migrations/index.js';
import { startReceiver, type Receiver } from '../utils/alert-receivers.js';
import { createPostgresTestDatabase, type TestDatabase } from '../utils/test-database.js';

const execFileAsync = promisify(execFile);

const SECRET = 'whsec_sealed_Zq81xPmw';
const BOT_TOKEN = '555000111:AAF-sealed-bot-token-QwErTy9';
const DISCORD_PATH = '/api/webhooks/4242/sealed-discord-path-Hn7v';
const PLAINTEXTS = [SECRET, BOT_TOKEN, DISCORD_PATH, 'sealed-discord-path-Hn7v'];

const K1 = randomBytes(32);
const K2 = randomBytes(32);

interface RunningApp {
  app: NestExpressApplication;
  close(): Promise<void>;
}

async function start(env: Record<string, string | undefined>): Promise<RunningApp> {
  const config = loadConfig({ LOG_LEVEL: 'silent', PORT: '3000', ALERT_TARGETS_ALLOW_PRIVATE: '1', DATABASE_URL: undefined, DB_PATH: ':memory:', SECRETS_KEY: undefined, SECRETS_KEY_FILE: undefined, ...env });
  const app = await createApp(config);
  await app.listen(0, '127.0.0.1');
  return { app, close: () => app.close() };
}

async function createRules(app: NestExpressApplication, hook: Receiver): Promise<void> {
  const channels = [
    { type: 'webhook', url: `${hook.url}/hook`, secret: SECRET },
    { type: 'telegram', botToken: BOT_TOKEN, chatId: '42' },
    { type: 'discord', webhookUrl: `${hook.url}${DISCORD_PATH}` },
  ];
  for (const [i, channel] of channels.entries()) {
    const res = await request(app.getHttpServer())
      .post('/v1/alerts/rules')
      .send({ email: 'sealed@example.com', name: `rule ${i}`, kind: 'feed', condition: { minutes: 2 }, channel });
    expect(res.status).toBe(201);
  }
}

/** The answers still mask each secret to its last 4 characters: the service opens what it sealed. */
async function expectMaskedAnswers(app: NestExpressApplication): Promise<void> {
  const res = await request(app.getHttpServer()).get('/v1/alerts/rules').query({ email: 'sealed@example.com' });
  expect(res.status).toBe(200);
  const channels = (res.body as { channel: Record<string, string | null> }[]).map((r) => r.channel);
  expect(channels).toContainEqual(expect.objectContaining({ type: 'webhook', secret: `***${SECRET.slice(-4)}` }));
  expect(channels).toContainEqual({ type: 'telegram', botToken: `***${BOT_TOKEN.slice(-4)}`, chatId: '42' });
  expect(channels).toContainEqual({ type: 'discord', webhookUrl: `***${DISCORD_PATH.slice(-4)}` });
  expect(JSON.stringify(res.body)).not.toContain(SECRET);
}

function expectNoPlaintext(haystack: string | Buffer): void {
  for (const secret of PLAINTEXTS) expect(Buffer.from(haystack).includes(Buffer.from(secret)), secret).toBe(false);
}

async function pgDump(url: string): Promise<string> {
  const { stdout } = await execFileAsync('pg_dump', ['--no-owner', url], { maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

async function storedSealed(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ sealed: string }>(`SELECT channel->>'sealed' AS sealed FROM alert_rules ORDER BY id`);
    return rows.map((r) => r.sealed);
  } finally {
    await client.end();
  }
}

async function rowsAsText(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rules = await client.query<{ row: string }>(`SELECT to_jsonb(r)::text AS row FROM alert_rules r ORDER BY id`);
    const migrations = await client.query<{ row: string }>(`SELECT to_jsonb(m)::text AS row FROM migrations m ORDER BY id`);
    return JSON.stringify([rules.rows, migrations.rows]);
  } finally {
    await client.end();
  }
}

/** Fires a notification for the webhook rule and sends it now, as the evaluator and sender do. */
async function sendToWebhook(app: NestExpressApplication, url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ id: string }>(`SELECT id FROM alert_rules WHERE channel->>'type' = 'webhook'`);
  await client.end();
  const now = Date.now();
  await app.get(AlertOutboxRepository).record([{
    ruleId: rows[0].id, email: 'sealed@example.com', ruleName: 'rule 0', channelType: 'webhook', route: 'binance',
    memory: { notifiedAt: now, value: 1, episode: 'e1' },
    message: { kind: 'feed', event: 'feed-down', ruleName: 'rule 0', text: 'binance feed down', data: {}, firedAt: new Date(now).toISOString() },
  }], now);
  await app.get(AlertSenderService).flush();
}

describe('alert secrets sealed at rest (rules: sealed-secrets)', () => {
  let hook: Receiver;
  beforeAll(async () => {
    hook = await startReceiver();
  });
  afterAll(async () => {
    await hook?.close();
  });

  describe('on PostgreSQL', () => {
    let db: TestDatabase;
    let url: string;
    beforeAll(async () => {
      db = await createPostgresTestDatabase();
      url = db.env.DATABASE_URL as string;
    });
    afterAll(async () => {
      await db?.drop();
    });

    it('a pg_dump after creating rules holds no secret in clear; answers still mask them', async () => {
      const running = await start({ DATABASE_URL: url, SECRETS_KEY: K1.toString('hex') });
      try {
        await createRules(running.app, hook);
        await expectMaskedAnswers(running.app);
      } finally {
        await running.close();
      }
      const dump = await pgDump(url);
      expect(dump).toContain('v1:');
      expectNoPlaintext(dump);
      expect((await storedSealed(url)).map((s) => sealedKeyId(s))).toEqual([keyIdOf(K1), keyIdOf(K1), keyIdOf(K1)]);
    });

    it('a start with another key stops with one line naming the sealing key id, and changes nothing', async () => {
      const before = await rowsAsText(url);
      const lines: string[] = [];
      const code = await startService({ DATABASE_URL: url, PORT: String(await freePort()), SECRETS_KEY: K2.toString('base64'), LOG_LEVEL: 'silent', SECRETS_KEY_FILE: undefined }, (l) => lines.push(l));
      expect(code).toBe(1);
      expect(lines).toHaveLength(1);
      expect(lines[0].trimEnd().split('\n')).toHaveLength(1);
      expect(lines[0]).toContain(`sealed with key ${keyIdOf(K1)}`);
      expect(lines[0]).toContain(`key ${keyIdOf(K2)}`);
      expect(lines[0]).toContain('Nothing was changed');
      for (const key of [K1, K2]) {
        expect(lines[0]).not.toContain(key.toString('hex'));
        expect(lines[0]).not.toContain(key.toString('base64'));
      }
      expect(await rowsAsText(url)).toBe(before);
    });

    it('rotate re-seals everything under the new key; the new key alone opens it and sends carry the right secret', { timeout: 90_000 }, async () => {
      const cli = await execFileAsync(process.execPath, ['--import', './scripts/ts-loader/register.mjs', 'src/database/secrets-cli.ts', 'rotate'], {
        env: { ...process.env, DATABASE_URL: url, SECRETS_KEY: K2.toString('hex'), SECRETS_KEY_PREVIOUS: K1.toString('hex'), LOG_LEVEL: 'silent' },
      });
      expect(cli.stdout).toContain('re-sealed 3 secret(s)');
      const sealed = await storedSealed(url);
      const newOnly = new Keyring(K2);
      expect(sealed.map((s) => sealedKeyId(s))).toEqual([keyIdOf(K2), keyIdOf(K2), keyIdOf(K2)]);
      expect(sealed.map((s) => newOnly.open(s)).sort()).toEqual([BOT_TOKEN, SECRET, `${hook.url}${DISCORD_PATH}`].sort());
      for (const s of sealed) expect(() => new Keyring(K1).open(s)).toThrow();
      expectNoPlaintext(await pgDump(url));

      const running = await start({ DATABASE_URL: url, SECRETS_KEY: K2.toString('hex') });
      try {
        await expectMaskedAnswers(running.app);
        await sendToWebhook(running.app, url);
        const got = hook.received.find((r) => r.path === '/hook');
        expect(got).toBeDefined();
        const expected = `sha256=${createHmac('sha256', SECRET).update(got?.body ?? '').digest('hex')}`;
        expect(got?.headers['x-signature']).toBe(expected);
      } finally {
        await running.close();
      }
    });
  });

  it('the migration seals rows a previous version stored in clear, and its down opens them again', async () => {
    const db = await createPostgresTestDatabase();
    const url = db.env.DATABASE_URL as string;
    try {
      const previous = new DataSource({ ...dataSourceOptions({ kind: 'postgres', url }), migrations: MIGRATIONS });
      await previous.initialize();
      await previous.query(
        `INSERT INTO alert_rules (email, name, kind, condition, channel, cooldown_seconds, enabled) VALUES
         ('sealed@example.com', 'rule 0', 'feed', '{"minutes":2}', $1, 300, true),
         ('sealed@example.com', 'rule 1', 'feed', '{"minutes":2}', $2, 300, true),
         ('sealed@example.com', 'rule 2', 'feed', '{"minutes":2}', $3, 300, true)`,
        [
          JSON.stringify({ type: 'webhook', url: `${hook.url}/hook`, secret: SECRET }),
          JSON.stringify({ type: 'telegram', botToken: BOT_TOKEN, chatId: '42' }),
          JSON.stringify({ type: 'discord', webhookUrl: `${hook.url}${DISCORD_PATH}` }),
        ],
      );
      await previous.destroy();

      const running = await start({ DATABASE_URL: url, SECRETS_KEY: K1.toString('hex') });
      try {
        await expectMaskedAnswers(running.app);
      } finally {
        await running.close();
      }
      expectNoPlaintext(await pgDump(url));
      expect((await storedSealed(url)).map((s) => sealedKeyId(s))).toEqual([keyIdOf(K1), keyIdOf(K1), keyIdOf(K1)]);

      const current = new DataSource({ ...dataSourceOptions({ kind: 'postgres', url }, [], undefined, new Keyring(K1)), migrationsRun: false });
      await current.initialize();
      await current.undoLastMigration();
      await current.destroy();
      const dump = await pgDump(url);
      for (const secret of [SECRET, BOT_TOKEN, DISCORD_PATH]) expect(dump).toContain(secret);
    } finally {
      await db.drop();
    }
  });

  describe('on the embedded folder', () => {
    let dir: string;
    beforeAll(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'am-sealed-'));
    });
    afterAll(() => {
      fs.rmSync(dir, { recursive: true, force: true });
    });

    // The first start initialises the folder (initdb in a child process): tens of seconds on a busy box.
    it('the folder holds no secret in clear; the key file is created beside it, 0600', { timeout: 120_000 }, async () => {
      const dbPath = path.join(dir, 'pglite');
      const running = await start({ DB_PATH: dbPath });
      try {
        await createRules(running.app, hook);
        await expectMaskedAnswers(running.app);
      } finally {
        await running.close();
      }
      const keyFile = path.join(dir, 'secrets.key');
      expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
      const files = fs.readdirSync(dbPath, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
      expect(files.length).toBeGreaterThan(0);
      for (const f of files) expectNoPlaintext(fs.readFileSync(path.join(f.parentPath, f.name)));
    });

    it('a start with another key file stops with the one line; the right key starts again', { timeout: 60_000 }, async () => {
      const dbPath = path.join(dir, 'pglite');
      const keyFile = path.join(dir, 'secrets.key');
      const right = fs.readFileSync(keyFile, 'utf8');
      const other = path.join(dir, 'other.key');
      fs.writeFileSync(other, `${K2.toString('hex')}\n`, { mode: 0o600 });
      const lines: string[] = [];
      const code = await startService({ DB_PATH: dbPath, PORT: String(await freePort()), DATABASE_URL: undefined, SECRETS_KEY_FILE: other, LOG_LEVEL: 'silent' }, (l) => lines.push(l));
      expect(code).toBe(1);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`sealed with key ${keyIdOf(Buffer.from(right.trim(), 'hex'))}`);
      expect(lines[0]).toContain(`the key file ${other}`);
      const running = await start({ DB_PATH: dbPath });
      try {
        await expectMaskedAnswers(running.app);
      } finally {
        await running.close();
      }
    });
  });
});
