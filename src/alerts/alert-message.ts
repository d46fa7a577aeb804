import type { OpportunityEventDto } from '../realtime/dto/opportunity-event.dto.js';
import type { AlertKind } from './alert-rule.types.js';

export type AlertEventType = 'opportunity' | 'funding' | 'funding-interval' | 'feed-down' | 'feed-recovered';

/** What a notification says: a one-paragraph note for people, and the same facts for machines. */
export interface AlertMessage {
  kind: AlertKind;
  event: AlertEventType;
  ruleName: string;
  text: string;
  data: Record<string, string | number | boolean | null>;
  /** RFC 3339 time of the firing. */
  firedAt: string;
}

/** The route's lifetimes over the last week, relative to the service's base URL. */
export function lifetimesLink(ticker: string, buy: string, sell: string): string {
  const query = new URLSearchParams({ ticker, buy, sell, days: '7' });
  return `/v1/opportunity-history/lifetimes?${query.toString()}`;
}

function ageText(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 120) return `${seconds} s`;
  return `${Math.round(seconds / 60)} min`;
}

/** The depth figures when both books are known: the net at the priced notional, and the largest size that still pays. */
function sizeText(e: OpportunityEventDto): string {
  if (e.size === null) return '';
  const net = e.size.netProfitPercent === null ? 'not fillable' : `net ${e.size.netProfitPercent}%`;
  return ` At ${e.size.notionalUsdt} USDT: ${net}; depth up to ${e.size.maxSizeUsdt} USDT.`;
}

export function opportunityMessage(ruleName: string, e: OpportunityEventDto, firedAt: number): AlertMessage {
  const link = lifetimesLink(e.ticker, e.buyExchange, e.sellExchange);
  const network = e.network ?? 'no open network';
  const text =
    `${e.ticker}: buy on ${e.buyExchange} at ${e.buyPrice}, sell on ${e.sellExchange} at ${e.sellPrice}. ` +
    `Gross ${e.profitPercentAskBid}%, net ${e.netProfitPercent}%${e.costsEstimated ? ' (fees estimated)' : ''}, ` +
    `network ${network}, open for ${ageText(e.ageMs)}.${sizeText(e)} Lifetimes: ${link}`;
  return {
    kind: 'opportunity',
    event: 'opportunity',
    ruleName,
    text,
    data: {
      ticker: e.ticker, buyExchange: e.buyExchange, sellExchange: e.sellExchange, buyPrice: e.buyPrice, sellPrice: e.sellPrice,
      grossPercent: e.profitPercentAskBid, netPercent: e.netProfitPercent, network: e.network, transferable: e.transferable,
      ageMs: e.ageMs, openedAt: e.openedAt, lifetimes: link,
      sizeNotionalUsdt: e.size?.notionalUsdt ?? null, sizeNetPercent: e.size?.netProfitPercent ?? null, maxSizeUsdt: e.size?.maxSizeUsdt ?? null,
    },
    firedAt: new Date(firedAt).toISOString(),
  };
}

export interface FundingFact {
  exchange: string;
  ticker: string;
  aprPercent: number;
  fundingRate: number | null;
  nextFundingTime: string | null;
}

export function fundingMessage(ruleName: string, f: FundingFact, minAbsApr: number, firedAt: number): AlertMessage {
  const side = f.aprPercent > 0 ? 'longs pay shorts (long spot, short perp)' : 'shorts pay longs (short spot, long perp)';
  const text = `${f.ticker} on ${f.exchange}: funding APR ${f.aprPercent}% (|APR| ≥ ${minAbsApr}%), ${side}` +
    `${f.nextFundingTime ? `, next payment ${f.nextFundingTime}` : ''}.`;
  return {
    kind: 'funding',
    event: 'funding',
    ruleName,
    text,
    data: { ...f, minAbsApr },
    firedAt: new Date(firedAt).toISOString(),
  };
}

export interface IntervalChangeFact {
  exchange: string;
  ticker: string;
  /** Unix ms the change was seen (or its first payment on the new interval). */
  at: number;
  fromHours: number;
  toHours: number;
}

export function fundingIntervalMessage(ruleName: string, c: IntervalChangeFact, firedAt: number): AlertMessage {
  const paid = c.toHours < c.fromHours ? 'more often' : 'less often';
  const changedAt = new Date(c.at).toISOString();
  const text = `${c.ticker} on ${c.exchange}: funding interval changed from ${c.fromHours} h to ${c.toHours} h (${changedAt}); ` +
    `funding is now paid ${paid}, so the same rate is worth a different APR.`;
  return {
    kind: 'funding',
    event: 'funding-interval',
    ruleName,
    text,
    data: { exchange: c.exchange, ticker: c.ticker, changedAt, fromHours: c.fromHours, toHours: c.toHours },
    firedAt: new Date(firedAt).toISOString(),
  };
}

export function feedMessage(ruleName: string, exchange: string, down: boolean, downSince: number, firedAt: number): AlertMessage {
  const duration = ageText(firedAt - downSince);
  const text = down
    ? `${exchange}: market feed down for ${duration} (since ${new Date(downSince).toISOString()}); its quotes are stale.`
    : `${exchange}: market feed recovered after ${duration} down.`;
  return {
    kind: 'feed',
    event: down ? 'feed-down' : 'feed-recovered',
    ruleName,
    text,
    data: { exchange, down, downSince: new Date(downSince).toISOString(), downMs: firedAt - downSince },
    firedAt: new Date(firedAt).toISOString(),
  };
}
