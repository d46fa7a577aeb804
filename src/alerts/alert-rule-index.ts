import { type FilterableEvent, type OpportunityFilter, matchesFilter, parseOpportunityFilter } from '../realtime/opportunity-filter.js';
import type { AlertKind, ChannelType, FeedCondition, FundingCondition, OpportunityCondition } from './alert-rule.types.js';

/** What the evaluator needs of a rule (no timestamps, no owner lookups). */
export interface IndexedRule {
  id: string;
  email: string;
  name: string;
  kind: AlertKind;
  condition: object;
  /** Only the type: the stored channel's secret stays sealed until a notification is sent. */
  channel: { type: ChannelType };
  cooldownSeconds: number;
}

interface Group<C> {
  condition: C;
  rules: IndexedRule[];
}

/**
 * Enabled rules grouped by distinct condition: an event is tested once per distinct condition,
 * so 1,000 rules sharing a few conditions cost those few tests, plus one step per rule that matched.
 */
export class AlertRuleIndex {
  private readonly opportunity = new Map<string, Group<OpportunityFilter | null>>();
  private readonly funding = new Map<string, Group<FundingCondition>>();
  private readonly feed = new Map<string, Group<FeedCondition>>();
  /** Condition tests made so far (for tests and the bench). */
  tests = 0;

  /** Rules left out: their stored condition names an exchange no longer configured. */
  readonly skipped: string[] = [];

  constructor(rules: readonly IndexedRule[], exchanges: readonly string[]) {
    for (const rule of rules) {
      try {
        this.add(rule, exchanges);
      } catch {
        this.skipped.push(rule.id);
      }
    }
  }

  private add(rule: IndexedRule, exchanges: readonly string[]): void {
    switch (rule.kind) {
      case 'opportunity': {
        const filter = parseOpportunityFilter(queryOf(rule.condition), exchanges);
        add(this.opportunity, filter?.key ?? '', filter, rule);
        break;
      }
      case 'funding':
        add(this.funding, JSON.stringify(rule.condition), rule.condition as FundingCondition, rule);
        break;
      case 'feed':
        add(this.feed, JSON.stringify(rule.condition), rule.condition as FeedCondition, rule);
        break;
    }
  }

  get groupCount(): number {
    return this.opportunity.size + this.funding.size + this.feed.size;
  }

  /**
   * Rules whose opportunity condition the event meets, each with the event as its condition prices
   * it: `price` answers the event at a condition's `size` (and its net threshold), once per distinct
   * pricing; without it, every condition sees the event as published.
   */
  opportunityRules<E extends FilterableEvent>(event: E, price: (filter: OpportunityFilter) => E = () => event): { rule: IndexedRule; event: E }[] {
    const out: { rule: IndexedRule; event: E }[] = [];
    for (const group of this.opportunity.values()) {
      this.tests++;
      const priced = group.condition === null ? event : price(group.condition);
      if (group.condition === null || matchesFilter(group.condition, priced)) for (const rule of group.rules) out.push({ rule, event: priced });
    }
    return out;
  }

  /** Funding groups with an APR threshold whose lists admit (ticker, exchange); the threshold is each group's own. */
  fundingGroups(ticker: string, exchange: string): Group<FundingCondition & { minAbsApr: number }>[] {
    const out: Group<FundingCondition & { minAbsApr: number }>[] = [];
    for (const group of this.funding.values()) {
      if (!hasApr(group)) continue;
      this.tests++;
      if (admits(group.condition, ticker, exchange)) out.push(group);
    }
    return out;
  }

  /** Funding groups watching interval changes whose lists admit (ticker, exchange). */
  intervalChangeGroups(ticker: string, exchange: string): Group<FundingCondition>[] {
    return [...this.funding.values()].filter((g) => g.condition.onIntervalChange === true && admits(g.condition, ticker, exchange));
  }

  feedGroups(): Group<FeedCondition>[] {
    return [...this.feed.values()];
  }
}

function add<C>(groups: Map<string, Group<C>>, key: string, condition: C, rule: IndexedRule): void {
  const group = groups.get(key);
  if (group) group.rules.push(rule);
  else groups.set(key, { condition, rules: [rule] });
}

const hasApr = (g: Group<FundingCondition>): g is Group<FundingCondition & { minAbsApr: number }> => g.condition.minAbsApr !== undefined;

function admits(c: { exchanges?: string[]; tickers?: string[] }, ticker: string, exchange: string): boolean {
  return (!c.exchanges || c.exchanges.includes(exchange)) && (!c.tickers || c.tickers.includes(ticker));
}

export const feedAdmits = (c: FeedCondition, exchange: string): boolean => !c.exchanges || c.exchanges.includes(exchange);

/** A stored (already canonical) opportunity condition in the stream's query form. */
function queryOf(c: OpportunityCondition): Record<string, unknown> {
  const q: Record<string, unknown> = {};
  if (c.minProfit !== undefined) q.minProfit = String(c.minProfit);
  if (c.minNetProfit !== undefined) q.minNetProfit = String(c.minNetProfit);
  if (c.transferable) q.transferable = 'true';
  if (c.exchanges) q.exchanges = c.exchanges.join(',');
  if (c.tickers) q.tickers = c.tickers.join(',');
  if (c.size !== undefined) q.size = String(c.size);
  if (c.minSize !== undefined) q.minSize = String(c.minSize);
  return q;
}
