import { saoPauloDayResolver } from '../common/time/sao-paulo.js';
import { rawPnl, roundAmount, type PnlInput } from './journal-pnl.engine.js';

/** A closed operation as the summary needs it; `closedAt` in Unix milliseconds. */
export interface SummaryOperation extends Omit<PnlInput, 'status'> {
  closedAt: number;
  strategy: string;
  asset: string;
  buyExchange: string;
  sellExchange: string;
  source: string;
}

/** SPEC 2.10: closed operations whose closedAt is in [from, to); from null = unbounded. */
export interface SummaryPeriod {
  from: number | null;
  to: number;
  strategy?: string;
  asset?: string;
  source?: string;
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

interface Tally {
  count: number;
  wins: number;
  grossPnl: number;
  netPnl: number;
}

const GROUPINGS = {
  byRoute: (op: SummaryOperation) => `${op.buyExchange}->${op.sellExchange}`,
  byAsset: (op: SummaryOperation) => op.asset,
  byStrategy: (op: SummaryOperation) => op.strategy,
  bySource: (op: SummaryOperation) => op.source,
} as const;
type Grouping = keyof typeof GROUPINGS;
const GROUPING_NAMES = Object.keys(GROUPINGS) as Grouping[];

/**
 * The journal summary (SPEC 2.10, D10). Pure: the caller passes the operations (ideally in
 * closedAt order, which keeps the day lookup cached) and the count of open operations.
 */
export function summarizeJournal(
  operations: Iterable<SummaryOperation>,
  period: SummaryPeriod,
  openOperations: number,
): JournalSummary {
  const dayOf = saoPauloDayResolver();
  const total = emptyTally();
  const days = new Map<string, number>();
  const groups = Object.fromEntries(GROUPING_NAMES.map((g) => [g, new Map()])) as Record<Grouping, Map<string, Tally>>;
  let fees = 0;
  let funding = 0;
  for (const op of operations) {
    if (!inPeriod(op, period)) continue;
    const { grossPnl, netPnl } = rawPnl(op);
    add(total, grossPnl, netPnl);
    fees += op.tradingFees + op.withdrawalFees;
    funding += op.funding;
    const day = dayOf(op.closedAt);
    days.set(day, (days.get(day) ?? 0) + netPnl);
    for (const name of GROUPING_NAMES) add(tallyOf(groups[name], GROUPINGS[name](op)), grossPnl, netPnl);
  }
  return {
    netPnl: roundAmount(total.netPnl),
    grossPnl: roundAmount(total.grossPnl),
    winRate: winRate(total),
    feesPaid: roundAmount(fees),
    fundingReceived: roundAmount(funding),
    openOperations,
    series: seriesOf(days),
    byRoute: groupsOf(groups.byRoute),
    byAsset: groupsOf(groups.byAsset),
    byStrategy: groupsOf(groups.byStrategy),
    bySource: groupsOf(groups.bySource),
  };
}

function inPeriod(op: SummaryOperation, p: SummaryPeriod): boolean {
  if (p.from !== null && op.closedAt < p.from) return false;
  if (op.closedAt >= p.to) return false;
  if (p.strategy !== undefined && op.strategy !== p.strategy) return false;
  if (p.asset !== undefined && op.asset !== p.asset) return false;
  return p.source === undefined || op.source === p.source;
}

function emptyTally(): Tally {
  return { count: 0, wins: 0, grossPnl: 0, netPnl: 0 };
}

function add(t: Tally, grossPnl: number, netPnl: number): void {
  t.count += 1;
  // A win is decided on the rounded figure, so a float-noise 1e-15 is not a win.
  if (roundAmount(netPnl) > 0) t.wins += 1;
  t.grossPnl += grossPnl;
  t.netPnl += netPnl;
}

function tallyOf(map: Map<string, Tally>, key: string): Tally {
  let t = map.get(key);
  if (!t) {
    t = emptyTally();
    map.set(key, t);
  }
  return t;
}

function winRate(t: Tally): number {
  return t.count === 0 ? 0 : roundAmount((t.wins / t.count) * 100);
}

function seriesOf(days: Map<string, number>): SummaryDay[] {
  let cumulative = 0;
  return [...days.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([date, netPnl]) => {
      cumulative += netPnl;
      return { date, netPnl: roundAmount(netPnl), cumulativeNetPnl: roundAmount(cumulative) };
    });
}

/** Ordered by net result, best first; equal results by key so the order is stable. */
function groupsOf(map: Map<string, Tally>): SummaryGroup[] {
  return [...map.entries()]
    .map(([key, t]) => ({
      key,
      count: t.count,
      grossPnl: roundAmount(t.grossPnl),
      netPnl: roundAmount(t.netPnl),
      winRate: winRate(t),
    }))
    .sort((a, b) => b.netPnl - a.netPnl || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
