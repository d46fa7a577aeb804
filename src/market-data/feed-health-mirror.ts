import type { ExchangeHealth } from './feed-health.js';

/** The ingest process publishes its feed health this often; a report older than three periods means it is gone. */
export const FEED_HEALTH_PUBLISH_MS = 1000;
const MAX_AGE_MS = 3 * FEED_HEALTH_PUBLISH_MS;

/**
 * An API instance runs no feeds, so /health/market and the price stream read the ingest
 * process's report, relayed through Redis. A missing or old report means the ingest process (or
 * the link to it) is gone, and every exchange is reported disconnected.
 */
export class FeedHealthMirror {
  private report: Record<string, ExchangeHealth> | null = null;
  private at = 0;

  set(report: Record<string, ExchangeHealth>, at: number): void {
    this.report = report;
    this.at = at;
  }

  fresh(now: number): Record<string, ExchangeHealth> | null {
    return this.report !== null && now - this.at <= MAX_AGE_MS ? this.report : null;
  }
}
