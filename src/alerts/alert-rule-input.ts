import { AppError } from '../common/errors/app-error.js';
import { parseOpportunityFilter } from '../realtime/opportunity-filter.js';
import {
  type AlertChannel, type AlertCondition, type AlertKind, DEFAULT_FEED_MINUTES, type FeedCondition, type FundingCondition,
  type OpportunityCondition,
} from './alert-rule.types.js';

/** Members each kind's condition may hold; anything else is refused by name. */
const CONDITION_MEMBERS: Record<AlertKind, readonly string[]> = {
  opportunity: ['minProfit', 'minNetProfit', 'transferable', 'exchanges', 'tickers', 'size', 'minSize'],
  funding: ['minAbsApr', 'onIntervalChange', 'exchanges', 'tickers'],
  feed: ['minutes', 'exchanges'],
};

export const MAX_ABS_APR = 100_000;
export const MAX_FEED_MINUTES = 1440;
const MAX_URL_LENGTH = 2048;
const MAX_SECRET_LENGTH = 256;
const BOT_TOKEN = /^\d{1,20}:[A-Za-z0-9_-]{20,100}$/;
const CHAT_ID = /^(-?\d{1,20}|@[A-Za-z0-9_]{5,64})$/;

export const CHANNEL_MESSAGES = {
  object: 'channel must be an object',
  type: 'channel.type must be webhook, telegram or discord',
  url: 'channel.url must be an http or https URL',
  secret: `channel.secret must be a string of 1 to ${MAX_SECRET_LENGTH} characters`,
  botToken: 'channel.botToken must be a Telegram bot token (digits, a colon, then the token)',
  chatId: 'channel.chatId must be an integer chat id or an @channel name',
  webhookUrl: 'channel.webhookUrl must be an http or https URL',
} as const;

export const CONDITION_MESSAGES = {
  object: 'condition must be an object',
  unknown: (kind: AlertKind, member: string) => `condition.${member} is not a ${kind} condition (allowed: ${CONDITION_MEMBERS[kind].join(', ')})`,
  minAbsAprRequired: 'condition.minAbsApr is required unless condition.onIntervalChange is true',
  onIntervalChange: 'condition.onIntervalChange must be true or false',
  minAbsApr: `condition.minAbsApr must be a number from 0 to ${MAX_ABS_APR}`,
  minutes: `condition.minutes must be an integer from 1 to ${MAX_FEED_MINUTES}`,
} as const;

/**
 * Validates a rule's condition for its kind and answers its canonical form. The opportunity kind
 * and the exchange and ticker lists of every kind go through the opportunity stream's own filter
 * parser, so a rule accepts exactly what the stream accepts, with the same texts.
 */
export function parseCondition(kind: AlertKind, raw: unknown, exchanges: readonly string[]): AlertCondition {
  const input = raw === undefined || raw === null ? {} : raw;
  if (typeof input !== 'object' || Array.isArray(input)) throw AppError.invalid(CONDITION_MESSAGES.object);
  const record = input as Record<string, unknown>;
  const unknown = Object.keys(record).find((member) => !CONDITION_MEMBERS[kind].includes(member));
  if (unknown !== undefined) throw AppError.invalid(CONDITION_MESSAGES.unknown(kind, unknown));
  switch (kind) {
    case 'opportunity':
      return opportunityCondition(record, exchanges);
    case 'funding':
      return fundingCondition(record, exchanges);
    case 'feed':
      return feedCondition(record, exchanges);
  }
}

function opportunityCondition(record: Record<string, unknown>, exchanges: readonly string[]): OpportunityCondition {
  const filter = parseOpportunityFilter(asQuery(record), exchanges);
  const out: OpportunityCondition = {};
  if (!filter) return out;
  if (filter.minProfit !== null) out.minProfit = filter.minProfit;
  if (filter.minNetProfit !== null) out.minNetProfit = filter.minNetProfit;
  if (filter.transferableOnly) out.transferable = true;
  if (filter.size !== null) out.size = filter.size;
  if (filter.minSize !== null) out.minSize = filter.minSize;
  return { ...out, ...lists(filter.exchanges, filter.tickers) };
}

/** An APR threshold, interval changes, or both; `onIntervalChange: false` is the same as leaving it out. */
function fundingCondition(record: Record<string, unknown>, exchanges: readonly string[]): FundingCondition {
  const onChange = record.onIntervalChange ?? false;
  if (typeof onChange !== 'boolean') throw AppError.invalid(CONDITION_MESSAGES.onIntervalChange);
  const apr = record.minAbsApr ?? null;
  if (apr === null && !onChange) throw AppError.invalid(CONDITION_MESSAGES.minAbsAprRequired);
  if (apr !== null && (typeof apr !== 'number' || !Number.isFinite(apr) || apr < 0 || apr > MAX_ABS_APR)) throw AppError.invalid(CONDITION_MESSAGES.minAbsApr);
  // Funding names one exchange's perpetual, not a route: a single exchange is a valid list here.
  const filter = parseOpportunityFilter(asQuery({ exchanges: record.exchanges, tickers: record.tickers }), exchanges, { routes: false });
  return {
    ...(apr === null ? {} : { minAbsApr: apr }),
    ...(onChange ? { onIntervalChange: true as const } : {}),
    ...lists(filter?.exchanges ?? null, filter?.tickers ?? null),
  };
}

function feedCondition(record: Record<string, unknown>, exchanges: readonly string[]): FeedCondition {
  const minutes = record.minutes ?? DEFAULT_FEED_MINUTES;
  if (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < 1 || minutes > MAX_FEED_MINUTES) {
    throw AppError.invalid(CONDITION_MESSAGES.minutes);
  }
  const filter = parseOpportunityFilter(asQuery({ exchanges: record.exchanges }), exchanges, { routes: false });
  return { minutes, ...lists(filter?.exchanges ?? null, null) };
}

function lists(exchanges: ReadonlySet<string> | null, tickers: ReadonlySet<string> | null): { exchanges?: string[]; tickers?: string[] } {
  const out: { exchanges?: string[]; tickers?: string[] } = {};
  if (exchanges) out.exchanges = [...exchanges].sort();
  if (tickers) out.tickers = [...tickers].sort();
  return out;
}

/**
 * JSON members in the stream's query form: numbers and booleans as text, arrays as comma lists.
 * Anything else becomes a value the parser refuses with the member's own text.
 */
function asQuery(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (value === undefined) continue;
    if (typeof value === 'number' || typeof value === 'boolean') out[key] = String(value);
    else if (Array.isArray(value)) out[key] = value.every((v) => typeof v === 'string') ? value.join(',') : [];
    else out[key] = typeof value === 'string' && (key === 'exchanges' || key === 'tickers') ? value : [];
  }
  return out;
}

/** Validates a channel's form; where it points is judged by assertChannelTarget (rules: outbound-targets), reachability never (an unreachable channel's deliveries fail visibly). */
export function parseChannel(raw: unknown): AlertChannel {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw AppError.invalid(CHANNEL_MESSAGES.object);
  const c = raw as Record<string, unknown>;
  switch (c.type) {
    case 'webhook': {
      const url = httpUrl(c.url, CHANNEL_MESSAGES.url);
      if (c.secret === undefined || c.secret === null) return { type: 'webhook', url, secret: null };
      if (typeof c.secret !== 'string' || c.secret.length < 1 || c.secret.length > MAX_SECRET_LENGTH) throw AppError.invalid(CHANNEL_MESSAGES.secret);
      return { type: 'webhook', url, secret: c.secret };
    }
    case 'telegram': {
      if (typeof c.botToken !== 'string' || !BOT_TOKEN.test(c.botToken)) throw AppError.invalid(CHANNEL_MESSAGES.botToken);
      const chatId = typeof c.chatId === 'number' && Number.isSafeInteger(c.chatId) ? String(c.chatId) : c.chatId;
      if (typeof chatId !== 'string' || !CHAT_ID.test(chatId)) throw AppError.invalid(CHANNEL_MESSAGES.chatId);
      return { type: 'telegram', botToken: c.botToken, chatId };
    }
    case 'discord':
      return { type: 'discord', webhookUrl: httpUrl(c.webhookUrl, CHANNEL_MESSAGES.webhookUrl) };
    default:
      throw AppError.invalid(CHANNEL_MESSAGES.type);
  }
}

function httpUrl(value: unknown, message: string): string {
  if (typeof value !== 'string' || value.length > MAX_URL_LENGTH) throw AppError.invalid(message);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw AppError.invalid(message);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw AppError.invalid(message);
  return url.toString();
}
