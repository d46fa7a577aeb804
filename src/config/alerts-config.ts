/** Alerts: where Telegram's Bot API is, how often the outbox is polled, and the first retry's wait. */
export interface AlertsConfig {
  telegramApiUrl: string;
  sendIntervalMs: number;
  retryBaseMs: number;
}
