import { describe, expect, it } from 'vitest';
import { MemoryTicketStore, STREAM_TICKET_TTL_MS, StreamTickets } from './stream-tickets.js';

describe('stream tickets (one process)', () => {
  const caller = { tokenId: 't1', email: 'a@example.com' };
  const setup = () => {
    let now = 1_000_000;
    const clock = () => now;
    const tickets = new StreamTickets(new MemoryTicketStore(clock), clock);
    return { tickets, advance: (ms: number) => (now += ms), now: () => now };
  };

  it('a ticket opens once, for its caller; a second use finds nothing', async () => {
    const { tickets, now } = setup();
    const { ticket, expiresAt } = await tickets.issue(caller);
    expect(ticket).toMatch(/^amk_[A-Za-z0-9_-]{43}$/);
    expect(expiresAt).toBe(now() + STREAM_TICKET_TTL_MS);
    expect(await tickets.redeem(ticket)).toEqual(caller);
    expect(await tickets.redeem(ticket)).toBeUndefined();
  });

  it('a ticket is good until its 60 s are over, and not a millisecond after', async () => {
    const { tickets, advance } = setup();
    const early = await tickets.issue(caller);
    const late = await tickets.issue(caller);
    advance(STREAM_TICKET_TTL_MS - 1);
    expect(await tickets.redeem(early.ticket)).toEqual(caller);
    advance(1);
    expect(await tickets.redeem(late.ticket)).toBeUndefined();
  });

  it('anything not shaped like a ticket (a bearer token, junk) is refused without a lookup', async () => {
    const { tickets } = setup();
    expect(await tickets.redeem(`amt_${'a'.repeat(43)}`)).toBeUndefined();
    expect(await tickets.redeem('')).toBeUndefined();
  });
});
