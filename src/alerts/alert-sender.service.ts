import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { Clock } from '../market-data/clock.js';
import { type BackoffPolicy, DEFAULT_BACKOFF, givesUp, retryDelayMs } from './alert-backoff.engine.js';
import { channelRequest } from './alert-channels.js';
import type { AlertHttp } from './alert-http.js';
import { AlertOutboxRepository, type ClaimedNotification } from './alert-outbox.repository.js';
import { scrub, secretsOf } from './alert-secrets.js';
import { ALERT_HTTP, ALERTS_CLOCK } from './alerts.constants.js';
import { AlertsMetrics } from './alerts.metrics.js';

/** Notifications taken per round, and sent at once (each waits at most the 10 s HTTP limit). */
const BATCH = 200;
const CONCURRENCY = 50;
/** A claim outlives the longest send (10 s) with room to record its result. */
const CLAIM_MS = 30_000;

export const DISABLED_REASON = 'channel failing for 24 h: rule disabled';

/**
 * Delivers the outbox: claims due notifications, sends each over its rule's channel with its
 * Idempotency-Key, and marks it delivered, or schedules a retry (exponential backoff with jitter,
 * or the receiver's Retry-After), or after 24 h of failures gives up and disables the rule.
 * The outbox is in the database, so a restart resumes where the last process stopped.
 */
@Injectable()
export class AlertSenderService implements OnApplicationShutdown {
  private readonly logger = new Logger('AlertSender');
  private readonly policy: BackoffPolicy;
  private timer: NodeJS.Timeout | null = null;
  private draining: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly outbox: AlertOutboxRepository,
    private readonly metrics: AlertsMetrics,
    @Inject(ALERT_HTTP) private readonly http: AlertHttp,
    @Inject(ALERTS_CLOCK) private readonly clock: Clock,
  ) {
    this.policy = { ...DEFAULT_BACKOFF, baseMs: config.alerts.retryBaseMs };
  }

  start(): void {
    if (this.stopped || this.timer) return;
    this.timer = setInterval(() => this.wake(), this.config.alerts.sendIntervalMs);
    this.timer.unref();
    this.wake();
  }

  /** Drains now (a firing was just recorded); a round already running is followed by one more. */
  wake(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.drain().finally(() => {
      this.draining = null;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** Drains now and resolves when that round (and any it asked for) is done. */
  async flush(): Promise<void> {
    this.wake();
    while (this.draining) await this.draining;
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.draining;
  }

  private async drain(): Promise<void> {
    try {
      for (;;) {
        const claimed = await this.outbox.claim(this.clock.now(), BATCH, CLAIM_MS);
        for (let i = 0; i < claimed.length; i += CONCURRENCY) {
          const chunk = claimed.slice(i, i + CONCURRENCY);
          const sent = await Promise.all(chunk.map((n) => this.send(n)));
          await this.markDelivered(chunk.filter((_, j) => sent[j]));
        }
        if (claimed.length < BATCH || this.stopped) return;
      }
    } catch (err) {
      this.logger.error({ msg: 'alert outbox round failed', error: err instanceof Error ? err.name : 'unknown' });
    }
  }

  private async markDelivered(delivered: ClaimedNotification[]): Promise<void> {
    const now = this.clock.now();
    await this.outbox.delivered(delivered.map((n) => n.id), now);
    for (const n of delivered) {
      this.metrics.delivered.inc({ channel: n.channelType });
      this.metrics.latency.observe({ channel: n.channelType }, Math.max(0, now - n.createdAt) / 1000);
    }
  }

  /** One attempt; true when it was delivered (marked by the caller with the rest of its chunk). */
  private async send(n: ClaimedNotification): Promise<boolean> {
    const channelType = n.channelType;
    if (n.channel === null) {
      await this.outbox.failed(n.id, null, 'rule deleted', null);
      this.metrics.failed.inc({ channel: channelType, final: 'true' });
      return false;
    }
    const request = channelRequest(n.channel, { id: n.id, message: n.message }, this.clock.now(), this.config.alerts.telegramApiUrl);
    const outcome = await this.http(request, this.clock.now());
    const now = this.clock.now();
    if (outcome.ok) return true;
    const error = scrub(outcome.error, secretsOf(n.channel));
    if ('blocked' in outcome) {
      // rules: outbound-targets. A refused target stays refused: trying again would only probe it again.
      await this.outbox.blocked(n.id, error);
      this.metrics.failed.inc({ channel: channelType, final: 'true' });
      this.logger.warn({ msg: 'alert target refused, notification blocked', notificationId: n.id, ruleId: n.ruleId, channel: channelType, error });
      return false;
    }
    if (givesUp(n.createdAt, now, this.policy)) {
      await this.outbox.failed(n.id, n.ruleId, `${error}; ${DISABLED_REASON}`, `${DISABLED_REASON} (last error: ${error})`);
      this.metrics.failed.inc({ channel: channelType, final: 'true' });
      this.logger.warn({ msg: 'alert channel failed for 24 h, rule disabled', ruleId: n.ruleId, channel: channelType, error });
      return false;
    }
    const delay = retryDelayMs(n.attempts + 1, this.policy, Math.random(), outcome.retryAfterMs);
    await this.outbox.retryLater(n.id, error, now + delay);
    this.metrics.failed.inc({ channel: channelType, final: 'false' });
    this.logger.warn({ msg: 'alert delivery failed, will retry', notificationId: n.id, channel: channelType, error, retryInMs: delay });
    return false;
  }
}
