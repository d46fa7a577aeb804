/** One address a host name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address of a host name; rejects with the resolver's error code (ENOTFOUND, …). */
export type HostResolver = (host: string) => Promise<ResolvedAddress[]>;

/** Alerts: where Telegram's Bot API is, how often the outbox is polled, the first retry's wait, and which targets are allowed. */
export interface AlertsConfig {
  telegramApiUrl: string;
  sendIntervalMs: number;
  retryBaseMs: number;
  /** ALERT_TARGETS_ALLOW_PRIVATE (rules: outbound-targets): http and non-public addresses allowed, for a trader's own LAN and tests. */
  allowPrivateTargets: boolean;
  /** The system resolver when absent; set by tests only, so a name can resolve where the test says. */
  resolveHost?: HostResolver;
}
