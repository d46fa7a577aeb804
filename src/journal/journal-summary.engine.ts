import { type CalendarUnit, saoPauloDayResolver, saoPauloPeriodOf } from '../common/time/sao-paulo.js';
import { dec, percent, roundAmount, type Dec } from '../common/money/money.js';
import { computePnl, type PnlInput } from './journal-pnl.engine.js';

/** A closed operation as the summary needs it; `closedAt` in Unix milliseconds. */
export interface SummaryOperation extends Omit<PnlInput, 'status'> {
  closedAt: number;
  strategy: string;
  asset: string;
  buyExchange: string;
  sellExchange: string;
  source: string;
}

/** The `journal` rule: closed operations whose closedAt is in [from, to); from null = unbounded. */
export interface SummaryPeriod {
  from: number | null;
  to: number;
  strategy?: string;
  asset?: string;
  source?: string;
}

/**
 * Sums over a set of closed operations, in decimal; `wins` counts those with netPnl > 0.
 * grossPnl and netPnl sum the operations' figures as shown (rounded once each), so the totals
 * add up to the operations a trader sees; fees and funding sum the amounts as entered.
 */
export interface Tally {
  count: number;
  wins: number;
  grossPnl: Dec;
  netPnl: Dec;
  fees: Dec;
  funding: Dec;
}

export const GROUPINGS = ['byRoute', 'byAsset', 'byStrategy', 'bySource'] as const;
export type Grouping = (typeof GROUPINGS)[number];

/**
 * The operations of a period already summed: per São Paulo day, and per key of each grouping.
 * The database produces this for real requests (one aggregate query); `tallyOperations`
 * produces it from single operations and is the reference the SQL follows.
 */
export interface SummaryTallies {
  days: Map<string, Tally>;
  groups: Record<Grouping, Map<string, Tally>>;
}

export interface SummaryGroup {
  key: string;
  count: number;
  grossPnl: number;
  netPnl: number;
  winRate: number;
}

export interface SummaryDay {
  date: string;
  netPnl: number;
  cumulativeNetPnl: number;
}

export interface JournalSummary {
  netPnl: number;
  grossPnl: number;
  winRate: number;
  feesPaid: number;
  fundingReceived: number;
  openOperations: number;
  series: SummaryDay[];
  byRoute: SummaryGroup[];
  byAsset: SummaryGroup[];
  byStrategy: SummaryGroup[];
  bySource: SummaryGroup[];
}

/** The route key of the `journal` rule. */
export const routeKey = (buyExchange: string, sellExchange: string): string => `${buyExchange}->${sellExchange}`;

const KEY_OF: Record<Grouping, (op: SummaryOperation) => string> = {
  byRoute: (op) => routeKey(op.buyExchange, op.sellExchange),
  byAsset: (op) => op.asset,
  byStrategy: (op) => op.strategy,
  bySource: (op) => op.source,
};

export function emptyTallies(): SummaryTallies {
  return { days: new Map(), groups: { byRoute: new Map(), byAsset: new Map(), byStrategy: new Map(), bySource: new Map() } };
}

/** Adds `part` into `map[key]`. */
export function addTally(map: Map<string, Tally>, key: string, part: Tally): void {
  const t = map.get(key);
  if (!t) {
    map.set(key, { ...part });
    return;
  }
  t.count += part.count;
  t.wins += part.wins;
  t.grossPnl = t.grossPnl.plus(part.grossPnl);
  t.netPnl = t.netPnl.plus(part.netPnl);
  t.fees = t.fees.plus(part.fees);
  t.funding = t.funding.plus(part.funding);
}

/** Single operations to tallies: the period is half-open, days are São Paulo days. */
export function tallyOperations(operations: Iterable<SummaryOperation>, period: SummaryPeriod): SummaryTallies {
  const dayOf = saoPauloDayResolver();
  const tallies = emptyTallies();
  for (const op of operations) {
    if (!inPeriod(op, period)) continue;
    // The same rounded results a stored operation carries, so both paths agree on a win.
    const { grossPnl, netPnl } = computePnl({ ...op, status: 'closed' });
    const part: Tally = {
      count: 1,
      wins: (netPnl ?? 0) > 0 ? 1 : 0,
      grossPnl: dec(grossPnl ?? 0),
      netPnl: dec(netPnl ?? 0),
      fees: dec(op.tradingFees).plus(op.withdrawalFees),
      funding: dec(op.funding),
    };
    addTally(tallies.days, dayOf(op.closedAt), part);
    for (const grouping of GROUPINGS) addTally(tallies.groups[grouping], KEY_OF[grouping](op), part);
  }
  return tallies;
}

/** The summary of the `journal` rule from the period's operations (pure). */
export function summarizeJournal(
  operations: Iterable<SummaryOperation>,
  period: SummaryPeriod,
  openOperations: number,
): JournalSummary {
  return summarizeTallies(tallyOperations(operations, period), openOperations);
}

/** The summary from tallies: totals, win rates, the cumulative series, ordered groups. */
export function summarizeTallies(tallies: SummaryTallies, openOperations: number): JournalSummary {
  const total = emptyTallies().days;
  for (const t of tallies.days.values()) addTally(total, '', t);
  const all = total.get('') ?? { count: 0, wins: 0, grossPnl: dec(0), netPnl: dec(0), fees: dec(0), funding: dec(0) };
  return {
    netPnl: roundAmount(all.netPnl),
    grossPnl: roundAmount(all.grossPnl),
    winRate: winRate(all),
    feesPaid: roundAmount(all.fees),
    fundingReceived: roundAmount(all.funding),
    openOperations,
    series: seriesOf(tallies.days),
    byRoute: groupsOf(tallies.groups.byRoute),
    byAsset: groupsOf(tallies.groups.byAsset),
    byStrategy: groupsOf(tallies.groups.byStrategy),
    bySource: groupsOf(tallies.groups.bySource),
  };
}

function inPeriod(op: SummaryOperation, p: SummaryPeriod): boolean {
  if (p.from !== null && op.closedAt < p.from) return false;
  if (op.closedAt >= p.to) return false;
  if (p.strategy !== undefined && op.strategy !== p.strategy) return false;
  if (p.asset !== undefined && op.asset !== p.asset) return false;
  return p.source === undefined || op.source === p.source;
}

function winRate(t: Tally): number {
  return t.count === 0 ? 0 : percent(dec(t.wins).div(t.count).times(100), 'winRate');
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function seriesOf(days: Map<string, Tally>): SummaryDay[] {
  let cumulative = dec(0);
  return [...days.entries()]
    .sort(([a], [b]) => byText(a, b))
    .map(([date, t]) => {
      cumulative = cumulative.plus(t.netPnl);
      return { date, netPnl: roundAmount(t.netPnl), cumulativeNetPnl: roundAmount(cumulative) };
    });
}

/**
 * The day tallies regrouped by São Paulo day, week (the Monday that starts it) or month; the
 * key is that period's label; oldest first.
 */
export function breakdownOfDays(days: Map<string, Tally>, unit: CalendarUnit): SummaryGroup[] {
  const periods = new Map<string, Tally>();
  for (const [day, t] of days) addTally(periods, saoPauloPeriodOf(day, unit), t);
  return groupsOf(periods).sort((a, b) => byText(a.key, b.key));
}

/** Ordered by net result, best first; equal results by key so the order is stable. */
function groupsOf(map: Map<string, Tally>): SummaryGroup[] {
  return [...map.entries()]
    .map(([key, t]) => ({ key, count: t.count, grossPnl: roundAmount(t.grossPnl), netPnl: roundAmount(t.netPnl), winRate: winRate(t) }))
    .sort((a, b) => b.netPnl - a.netPnl || byText(a.key, b.key));
}
