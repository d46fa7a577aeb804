import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { AppConfig } from '../../src/config/app-config.js';

/** The Redis every machine here runs; CI may point elsewhere. */
export const TEST_REDIS_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';

/**
 * A key prefix of its own per test, so test files running in parallel never share a key, and a
 * `drop()` that deletes every key under it.
 */
export function testRedisPrefix(): { prefix: string; env: Record<string, string>; drop(): Promise<void> } {
  const prefix = `test:${randomUUID().slice(0, 8)}:`;
  return {
    prefix,
    env: { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix },
    drop: async () => {
      const redis = new Redis(TEST_REDIS_URL);
      try {
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length > 0) await redis.del(...keys);
      } finally {
        redis.disconnect();
      }
    },
  };
}

/** The scale-out part of an AppConfig, for building one piece by hand. */
export function scaleOutConfig(role: 'all' | 'ingest' | 'api', prefix: string): AppConfig {
  return { scaleOut: { role, redis: { url: TEST_REDIS_URL, keyPrefix: prefix } } } as unknown as AppConfig;
}
