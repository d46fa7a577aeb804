import { describe, expect, it } from 'vitest';
import type { AppConfig } from '../config/app-config.js';
import type { ChannelRequest, DeliveryOutcome } from './alert-channels.js';
import type { ClaimedNotification } from './alert-outbox.repository.js';
import { AlertSenderService } from './alert-sender.service.js';

const DAY = 86_400_000;
const counter = { inc: () => undefined };

/** The sender over a one-notification outbox that records what the sender decided. */
function harness(outcome: DeliveryOutcome, createdAt: number, attempts = 0) {
  const clock = { t: createdAt, now: () => clock.t };
  const calls: string[] = [];
  const requests: ChannelRequest[] = [];
  let pending = true;
  const notification: ClaimedNotification = {
    id: '00000000-0000-4000-8000-000000000001', ruleId: 'rule-1', createdAt, attempts, channelType: 'telegram',
    message: { kind: 'opportunity', event: 'opportunity', ruleName: 'r', text: 'note', data: {}, firedAt: '' },
    channel: { type: 'telegram', botToken: '1:secret-token-abcdefghijklmnop', chatId: '7' },
  };
  const outbox = {
    claim: () => Promise.resolve(pending ? ((pending = false), [notification]) : []),
    delivered: (ids: string[]) => Promise.resolve(void (ids.length > 0 && calls.push('delivered'))),
    retryLater: (_id: string, error: string, at: number) => Promise.resolve(void calls.push(`retry ${error} at +${at - clock.t}`)),
    failed: (_id: string, ruleId: string | null, error: string, reason: string | null) => Promise.resolve(void calls.push(`failed ${ruleId} ${error} | ${reason}`)),
    blocked: (_id: string, error: string) => Promise.resolve(void calls.push(`blocked ${error}`)),
  };
  const config = { alerts: { telegramApiUrl: 'http://tg', sendIntervalMs: 1000, retryBaseMs: 1000 } } as AppConfig;
  const metrics = { fired: counter, delivered: counter, failed: counter, latency: { observe: () => undefined } };
  const http = (r: ChannelRequest) => Promise.resolve((requests.push(r), outcome));
  const sender = new AlertSenderService(config, outbox as never, metrics as never, http, clock);
  return { sender, clock, calls, requests };
}

describe('AlertSenderService', () => {
  it('sends with the notification id as Idempotency-Key and marks it delivered', async () => {
    const h = harness({ ok: true }, 0);
    await h.sender.flush();
    expect(h.calls).toEqual(['delivered']);
    expect(h.requests[0]).toMatchObject({ url: 'http://tg/bot1:secret-token-abcdefghijklmnop/sendMessage', headers: { 'Idempotency-Key': '00000000-0000-4000-8000-000000000001' } });
  });

  it("honours the receiver's wait", async () => {
    const h = harness({ ok: false, error: 'HTTP 429', retryAfterMs: 7000 }, 0);
    await h.sender.flush();
    expect(h.calls).toEqual(['retry HTTP 429 at +7000']);
  });

  it('1 ms before 24 h it still retries; at 24 h it gives up and disables the rule', async () => {
    const before = harness({ ok: false, error: 'HTTP 500', retryAfterMs: null }, 0, 30);
    before.clock.t = DAY - 1;
    await before.sender.flush();
    // Attempt 31: the nominal wait is capped at 1 h; equal jitter keeps it within [30 min, 1 h].
    expect(before.calls).toHaveLength(1);
    const wait = Number(/^retry HTTP 500 at \+(\d+)$/.exec(before.calls[0])?.[1]);
    expect(wait).toBeGreaterThanOrEqual(1_800_000);
    expect(wait).toBeLessThanOrEqual(3_600_000);
    const at = harness({ ok: false, error: 'HTTP 500', retryAfterMs: null }, 0, 30);
    at.clock.t = DAY;
    await at.sender.flush();
    expect(at.calls).toEqual(['failed rule-1 HTTP 500; channel failing for 24 h: rule disabled | channel failing for 24 h: rule disabled (last error: HTTP 500)']);
  });

  it('scrubs a channel secret out of an error text before it is stored or logged', async () => {
    const h = harness({ ok: false, error: 'refused by 1:secret-token-abcdefghijklmnop', retryAfterMs: 0 }, 0);
    await h.sender.flush();
    expect(h.calls).toEqual(['retry refused by *** at +0']);
  });

  it('a blocked target is recorded as blocked at once, never retried (rules: outbound-targets)', async () => {
    const h = harness({ ok: false, blocked: true, error: 'blocked: target resolves to 127.0.0.1, a loopback address' }, 0);
    await h.sender.flush();
    expect(h.calls).toEqual(['blocked blocked: target resolves to 127.0.0.1, a loopback address']);
  });
});
