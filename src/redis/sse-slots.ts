import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { SseSlot, StreamSlots } from '../common/sse/stream-slots.js';
import { RedisLink } from './redis-link.js';
import { errorFields } from '../common/logging/json-logger.js';

/** A slot outlives its instance's last refresh by this long; the instance refreshes every third of it. */
export const SLOT_TTL_MS = 30_000;

/** Drops expired slots, then takes one if fewer than the cap are held. Redis's clock decides expiry. */
const ACQUIRE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`;
/** Pushes the expiry of slots this instance still holds (XX: never revives one released meanwhile). */
const REFRESH_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], 'XX', now + tonumber(ARGV[1]), ARGV[i + 1])
  redis.call('PEXPIRE', KEYS[i], ARGV[1])
end
return #KEYS
`;

/**
 * The per-IP stream cap (rules: rate-limits; SSE_MAX_PER_IP) counted across instances. Each open stream
 * holds a member of a Redis sorted set per client IP, scored with its expiry; the instance renews
 * its members while the streams live, so the slots of an instance that dies lapse by themselves.
 * `shared` is false without Redis: the hub then counts in process only, as before.
 */
@Injectable()
export class SseSlots implements StreamSlots, OnApplicationShutdown {
  private readonly logger = new Logger('SseSlots');
  private readonly instanceId = randomUUID();
  private readonly held = new Map<string, string>();
  private timer: NodeJS.Timeout | null = null;
  private seq = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisLink,
  ) {}

  get shared(): boolean {
    return this.redis.enabled;
  }

  /**
   * A slot for one more stream from `ip`, or null when the IP already holds the cap across all
   * instances. With Redis unreachable it answers with a local slot (the hub's own count still caps).
   */
  async acquire(ip: string): Promise<SseSlot | null> {
    const member = `${this.instanceId}:${++this.seq}`;
    const key = this.redis.key(`sse:${ip}`);
    try {
      const taken = await this.redis.commands.eval(ACQUIRE_SCRIPT, 1, key, this.config.sse.maxPerIp, member, SLOT_TTL_MS);
      if (Number(taken) !== 1) return null;
    } catch (err) {
      this.logger.warn({ msg: 'Redis unreachable, capping streams per instance', error: errorFields(err) });
      return { release: () => undefined };
    }
    this.held.set(member, key);
    this.timer ??= setInterval(() => void this.refresh(), SLOT_TTL_MS / 3).unref();
    return { release: () => this.release(member) };
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    const held = [...this.held];
    this.held.clear();
    if (held.length > 0) {
      const pipeline = this.redis.commands.pipeline();
      for (const [member, key] of held) pipeline.zrem(key, member);
      await pipeline.exec().catch(() => undefined);
    }
  }

  private release(member: string): void {
    const key = this.held.get(member);
    if (key === undefined) return;
    this.held.delete(member);
    // If Redis is away the slot lapses by itself within SLOT_TTL_MS.
    void this.redis.commands.zrem(key, member).catch(() => undefined);
    if (this.held.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private async refresh(): Promise<void> {
    if (this.held.size === 0) return;
    const members = [...this.held.keys()];
    const keys = members.map((m) => this.held.get(m) ?? '');
    await this.redis.commands.eval(REFRESH_SCRIPT, keys.length, ...keys, SLOT_TTL_MS, ...members).catch(() => undefined);
  }
}
