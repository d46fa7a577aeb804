import type { Market } from '../../market-model/exchanges.js';
import type { RestReply, RestRequest } from './protocol.js';

/**
 * The shape of a venue's published websocket and REST limits for what the service uses (best
 * bid/ask and public market data), as the strict simulator enforces them. Each venue's folder
 * holds its figures (`<venue>/limits.ts`); docs/venues.md gives the source of every figure, keep
 * the two in step.
 */
export interface ServerPing {
  /** The venue sends a protocol ping this often ... */
  intervalMs: number;
  /** ... and drops a connection that has not answered with a pong this long after a ping. */
  timeoutMs: number;
}

export interface IdleRule {
  /** Dropped after this long without... */
  timeoutMs: number;
  /**
   * ...a client ping (`ping`: any, text or protocol), the text `ping` alone (`text-ping`), or
   * without a client ping and without data pushed (`ping-or-data`).
   */
  resetBy: 'ping' | 'text-ping' | 'ping-or-data';
}

/** What the venue does when a client goes over a websocket limit. */
export type OverLimit =
  | { kind: 'close'; code: number; reason: string }
  | { kind: 'reply'; payload: (limit: string, request: Record<string, unknown>) => unknown; close?: boolean };

export interface RestLimit {
  /** Weight allowed per window and per bucket. */
  limit: number;
  windowMs: number;
  /** The bucket a call counts against: per IP for the whole host, or per endpoint. */
  bucket(req: RestRequest): string;
  weight(req: RestRequest): number;
  /** The venue's answer beyond the limit (status 429 unless stated). */
  tooMany(retryAfterSeconds: number): RestReply;
  /** The venue sends `Retry-After` on its limit and ban answers. */
  sendsRetryAfter: boolean;
  /**
   * A client that keeps calling during a Retry-After is banned (`banned`), first for this long,
   * each further ban twice the one before, up to `maxBanMs`. Without it there is no ban.
   */
  banMs?: number;
  maxBanMs?: number;
  banned?(untilMs: number): RestReply;
  /**
   * After the limit answer the IP must make no call for this long; a call within it is answered
   * the same again and the quiet time starts over. Without it the limit lifts when its window ends.
   */
  quietMs?: number;
  /** Buckets whose weight limit differs from `limit` (a venue counting two APIs apart). */
  bucketLimits?: Readonly<Record<string, number>>;
  /** The limit of an endpoint that has one of its own on top of the venue's (a call counts against both). */
  endpoint?(req: RestRequest): EndpointLimit | undefined;
}

/** An endpoint's own limit: `limit` calls per `windowMs` in `bucket`. */
export interface EndpointLimit {
  bucket: string;
  limit: number;
  windowMs: number;
}

export interface VenueLimits {
  /** Subscriptions (streams, args) one connection may hold, per market. */
  subscriptionsPerConnection: Record<Market, number>;
  /** Args one subscribe request may carry (null: not limited). */
  argsPerRequest: Record<Market, number | null>;
  /** Characters of one subscribe request's args, all together (null: not limited). */
  argsCharsPerRequest: Record<Market, number | null>;
  /** Bytes of one client frame (null: not limited). */
  maxFrameBytes: number | null;
  /** The venue's answer to a frame over `maxFrameBytes` (it keeps the connection). */
  frameRefusal?: (limit: string) => unknown;
  /** A connection that has not subscribed within this long is dropped (null: never). */
  subscribeWithinMs: number | null;
  /** Messages a client may send per second on one connection, pings and pongs included (null: not limited). */
  messagesPerSecond: Record<Market, number | null>;
  /** Subscribe requests per hour on one connection (null: not limited). */
  subscribesPerHour: number | null;
  /** True when unsubscribe requests count against `subscribesPerHour` too. */
  unsubscribesCountPerHour: boolean;
  /** New connections per IP within `connectWindowMs` (null: not limited). */
  connectionsPerWindow: { limit: number; windowMs: number } | null;
  /** Open connections per IP (null: not limited). */
  openConnections: number | null;
  serverPing: Record<Market, ServerPing | null>;
  idle: IdleRule | null;
  /** The venue closes every connection after this long (null: no forced lifetime). */
  lifetimeMs: number | null;
  overLimit: OverLimit;
  rest: RestLimit;
  /** REST answer while the venue is in maintenance (HTTP 503 and the venue's own code). */
  maintenance(): RestReply;
}

export const SECOND = 1_000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** The policy close (1008) a venue sends when a connection breaks a documented rule. */
export const policyClose = (reason: string): OverLimit => ({ kind: 'close', code: 1008, reason });

/** The weight of a depth snapshot: the first band whose limit covers the levels asked for. */
export function depthWeight(limit: number, bands: readonly (readonly [number, number])[], beyond: number): number {
  return bands.find(([upTo]) => limit <= upTo)?.[1] ?? beyond;
}

/** A bucket per endpoint path, for venues that count each endpoint apart. */
export const byPath = (req: RestRequest): string => req.path;
