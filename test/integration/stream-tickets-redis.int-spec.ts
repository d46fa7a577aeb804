import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisTicketStore, STREAM_TICKET_TTL_MS, StreamTickets } from '../../src/auth/stream-tickets.js';
import { RedisLink } from '../../src/redis/redis-link.js';
import { until } from '../utils/wait.js';
import { scaleOutConfig, TEST_REDIS_URL, testRedisPrefix } from '../utils/test-redis.js';

/**
 * Scale-out: a browser asks one API instance for a stream ticket and its EventSource lands on
 * another. Two instances here are two Redis links under one key prefix, as two processes are.
 */
describe('stream tickets through Redis, across instances', () => {
  const redis = testRedisPrefix();
  const links: RedisLink[] = [];
  const caller = { tokenId: '0b9f1d8e-7a7e-4c4e-9c1e-2f7f3c1b5a10', email: 'trader@example.com' };

  const instance = (): StreamTickets => {
    const link = new RedisLink(scaleOutConfig('api', redis.prefix));
    links.push(link);
    return new StreamTickets(new RedisTicketStore(link), () => Date.now());
  };

  afterAll(async () => {
    await Promise.all(links.map((l) => l.onApplicationShutdown()));
    await redis.drop();
  });

  it('a ticket issued by one instance opens a stream on another, once', async () => {
    const [a, b] = [instance(), instance()];
    const { ticket } = await a.issue(caller);
    expect(await b.redeem(ticket)).toEqual(caller);
    expect(await b.redeem(ticket)).toBeUndefined();
    expect(await a.redeem(ticket)).toBeUndefined();
  });

  it('two instances redeeming the same ticket at once: exactly one wins', async () => {
    const [a, b, c] = [instance(), instance(), instance()];
    for (let i = 0; i < 20; i += 1) {
      const { ticket } = await a.issue(caller);
      const results = await Promise.all([b.redeem(ticket), c.redeem(ticket), a.redeem(ticket)]);
      expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    }
  });

  it('Redis holds the ticket under its hash only, and expires it after 60 s', async () => {
    const a = instance();
    const { ticket } = await a.issue(caller);
    const raw = new Redis(TEST_REDIS_URL);
    try {
      const keys = await raw.keys(`${redis.prefix}auth:ticket:*`);
      expect(keys).toHaveLength(1);
      const key = keys[0];
      expect(key).not.toContain(ticket.slice(4));
      expect(await raw.get(key)).not.toContain(ticket.slice(4));
      const ttl = await raw.pttl(key);
      expect(ttl).toBeGreaterThan(STREAM_TICKET_TTL_MS - 5_000);
      expect(ttl).toBeLessThanOrEqual(STREAM_TICKET_TTL_MS);
      // What Redis does at the expiry, without waiting a minute: a key past its time is gone.
      await raw.pexpire(key, 1);
      await until(() => raw.exists(key), (n) => n === 0, 2000, 5);
      expect(await a.redeem(ticket)).toBeUndefined();
    } finally {
      raw.disconnect();
    }
  });
});
