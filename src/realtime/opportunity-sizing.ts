import { type SseFrame, dataFrame } from '../common/sse/sse-frame.js';
import { type DepthLevels, walkDepth } from './depth.engine.js';
import type { OpportunityEventDto } from './dto/opportunity-event.dto.js';
import type { OpportunitySizeDto } from './dto/opportunity-size.dto.js';
import type { OpportunityFilter } from './opportunity-filter.js';

/** What an event's `size` is priced from: the two books and the route's costs, as they were at the event. */
export interface SizeInputs {
  readonly asks: DepthLevels;
  readonly bids: DepthLevels;
  readonly buyFeePercent: number | undefined;
  readonly sellFeePercent: number | undefined;
  readonly withdrawalFee: number | null;
  readonly depthAgeMs: number;
}

/** The event's `size` at a notional, its maxSizeUsdt against `minNetPercent`. O(levels of both books). */
export function sizeOf(inputs: SizeInputs, notionalUsdt: number, minNetPercent: number): OpportunitySizeDto {
  const walk = walkDepth({ ...inputs, notionalUsdt, minNetPercent });
  return {
    notionalUsdt: walk.notionalUsdt,
    buyAvgPrice: walk.buyAvgPrice,
    sellAvgPrice: walk.sellAvgPrice,
    filledUsdt: walk.filledUsdt,
    netProfitPercent: walk.netProfitPercent,
    maxSizeUsdt: walk.maxSizeUsdt,
    depthAgeMs: inputs.depthAgeMs,
  };
}

/**
 * How a filter prices `size`: null when as the published event does (the reference notional,
 * maxSizeUsdt against 0), else the canonical text of its notional and threshold.
 */
export function pricingKeyOf(filter: OpportunityFilter | null, referenceUsdt: number): string | null {
  if (filter === null) return null;
  const notional = filter.size ?? referenceUsdt;
  const threshold = filter.minNetProfit ?? 0;
  return notional === referenceUsdt && threshold === 0 ? null : `${notional}|${threshold}`;
}

/** One event in one pricing, serialised at most once. */
export interface PricedEvent {
  readonly event: OpportunityEventDto;
  frame(): SseFrame;
}

/**
 * The event as each distinct pricing sees it, for one delivery or replay: re-priced once per
 * pricing key (never per client), its frame serialised once, on first use.
 */
export class EventPricings {
  private readonly byKey = new Map<string, PricedEvent>();
  private readonly published: PricedEvent;

  constructor(
    private readonly id: number,
    event: OpportunityEventDto,
    publishedFrame: SseFrame | null,
    private readonly inputs: SizeInputs | undefined,
    private readonly referenceUsdt: number,
  ) {
    this.published = priced(id, event, publishedFrame);
  }

  for(filter: OpportunityFilter | null): PricedEvent {
    const key = pricingKeyOf(filter, this.referenceUsdt);
    if (key === null || !this.inputs || this.published.event.size === null) return this.published;
    let found = this.byKey.get(key);
    if (!found) {
      const size = sizeOf(this.inputs, filter?.size ?? this.referenceUsdt, filter?.minNetProfit ?? 0);
      found = priced(this.id, { ...this.published.event, size }, null);
      this.byKey.set(key, found);
    }
    return found;
  }
}

function priced(id: number, event: OpportunityEventDto, frame: SseFrame | null): PricedEvent {
  let built = frame;
  return { event, frame: () => (built ??= dataFrame(event, { id })) };
}
