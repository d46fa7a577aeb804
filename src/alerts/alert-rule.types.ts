/** What a rule watches: opportunities per route, funding per (ticker, exchange), feeds per exchange. */
export const ALERT_KINDS = ['opportunity', 'funding', 'feed'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export const CHANNEL_TYPES = ['webhook', 'telegram', 'discord'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** The opportunity stream's filters, stored in their canonical form (lists sorted, tickers BASE-QUOTE). */
export interface OpportunityCondition {
  minProfit?: number;
  minNetProfit?: number;
  transferable?: boolean;
  exchanges?: string[];
  tickers?: string[];
  /** USDT to price the route's depth at (the event's `size`); absent: the reference notional. */
  size?: number;
  /** Only routes whose depth holds at least this many USDT at or above the net threshold; an unknown depth does not pass. */
  minSize?: number;
}

export interface FundingCondition {
  /** Fires when the absolute APR (percent) of a (ticker, exchange) is at or above this. */
  minAbsApr?: number;
  /** Fires when the venue moves a perpetual to another funding interval (8 h to 4 h, …). */
  onIntervalChange?: true;
  exchanges?: string[];
  tickers?: string[];
}

export interface FeedCondition {
  /** Fires when an exchange's feed has been down for more than this many minutes, and on its recovery. */
  minutes: number;
  exchanges?: string[];
}

export type AlertCondition = OpportunityCondition | FundingCondition | FeedCondition;

export type AlertChannel =
  | { type: 'webhook'; url: string; secret: string | null }
  | { type: 'telegram'; botToken: string; chatId: string }
  | { type: 'discord'; webhookUrl: string };

/** Rule limits: per email, and the cool-down range in seconds. */
export const MAX_RULES_PER_EMAIL = 50;
export const MIN_COOLDOWN_SECONDS = 10;
export const MAX_COOLDOWN_SECONDS = 86_400;
export const DEFAULT_COOLDOWN_SECONDS = 300;
export const DEFAULT_FEED_MINUTES = 2;
