import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '../common/http/request-context.js';
import { RedisLink } from '../redis/redis-link.js';
import { hashSecret, hasSecretShape, newSecret, TICKET_PREFIX } from './token-secret.js';

/** How long a stream ticket may wait for its one stream open. */
export const STREAM_TICKET_TTL_MS = 60_000;
export const CLOCK = Symbol('AUTH_CLOCK');
export type Clock = () => number;

/**
 * Where issued tickets wait, keyed by their SHA-256 (the ticket itself is never stored). `take`
 * hands a ticket's caller out once: the first open wins, any later one finds nothing.
 */
export interface TicketStore {
  put(hash: string, caller: Caller, ttlMs: number): Promise<void>;
  take(hash: string): Promise<Caller | undefined>;
}

/** One process: a map whose entries die at their expiry (checked when read, swept when written). */
export class MemoryTicketStore implements TicketStore {
  private readonly tickets = new Map<string, { caller: Caller; expiresAt: number }>();

  constructor(private readonly now: Clock) {}

  put(hash: string, caller: Caller, ttlMs: number): Promise<void> {
    const now = this.now();
    for (const [key, t] of this.tickets) if (t.expiresAt <= now) this.tickets.delete(key);
    this.tickets.set(hash, { caller, expiresAt: now + ttlMs });
    return Promise.resolve();
  }

  take(hash: string): Promise<Caller | undefined> {
    const ticket = this.tickets.get(hash);
    this.tickets.delete(hash);
    return Promise.resolve(ticket && ticket.expiresAt > this.now() ? ticket.caller : undefined);
  }
}

/**
 * Scale-out: a ticket issued by one API instance opens a stream on any other. Redis expires the
 * key itself, and GETDEL makes the one use atomic across instances.
 */
export class RedisTicketStore implements TicketStore {
  constructor(private readonly redis: RedisLink) {}

  async put(hash: string, caller: Caller, ttlMs: number): Promise<void> {
    await this.redis.commands.set(this.key(hash), JSON.stringify(caller), 'PX', ttlMs);
  }

  async take(hash: string): Promise<Caller | undefined> {
    const raw = await this.redis.commands.getdel(this.key(hash));
    if (raw === null) return undefined;
    const parsed = JSON.parse(raw) as Partial<Caller>;
    return typeof parsed.tokenId === 'string' && typeof parsed.email === 'string' ? { tokenId: parsed.tokenId, email: parsed.email } : undefined;
  }

  private key(hash: string): string {
    return this.redis.key(`auth:ticket:${hash}`);
  }
}

export const TICKET_STORE = Symbol('TICKET_STORE');

@Injectable()
export class StreamTickets {
  constructor(
    @Inject(TICKET_STORE) private readonly store: TicketStore,
    @Inject(CLOCK) private readonly now: Clock,
  ) {}

  async issue(caller: Caller): Promise<{ ticket: string; expiresAt: number }> {
    const ticket = newSecret(TICKET_PREFIX);
    await this.store.put(hashSecret(ticket), caller, STREAM_TICKET_TTL_MS);
    return { ticket, expiresAt: this.now() + STREAM_TICKET_TTL_MS };
  }

  /** The caller of a live, unused ticket; using it spends it. */
  redeem(ticket: string): Promise<Caller | undefined> {
    if (!hasSecretShape(ticket, TICKET_PREFIX)) return Promise.resolve(undefined);
    return this.store.take(hashSecret(ticket));
  }
}
