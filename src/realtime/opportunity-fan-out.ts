import { Observable, Subject } from 'rxjs';
import type { SseFrame } from '../common/sse/sse-frame.js';
import type { OpportunityEventDto } from './dto/opportunity-event.dto.js';
import { EventRing } from './event-ring.js';
import { type OpportunityFilter, matchesFilter } from './opportunity-filter.js';
import { EventPricings, type SizeInputs } from './opportunity-sizing.js';

/** The `streams` rule: the replay ring keeps the last 10,000 events, at most 5 minutes old. */
const RING_LIMITS = { maxEvents: 10_000, maxAgeMs: 5 * 60_000 };

/** One event as the ingest role publishes it: its id is assigned once, where it is detected. */
export interface PublishedOpportunity {
  readonly id: number;
  readonly at: number;
  readonly event: OpportunityEventDto;
}

/** The clients that share one filter (or none: key ''), and the one subject they listen on. */
interface FilterGroup {
  readonly filter: OpportunityFilter | null;
  readonly subject: Subject<SseFrame>;
  clients: number;
}

/**
 * The opportunity stream's clients: the replay ring (rules: streams) and the filter groups.
 * Clients with a filter are grouped by the filter's canonical text: an event is tested once per
 * distinct filter and its one frame handed to the group, never serialised per client; its `size`
 * is re-priced once per distinct pricing (a filter's notional and net threshold).
 */
export class OpportunityFanOut {
  private readonly ring = new EventRing<OpportunityEventDto>(RING_LIMITS);
  private readonly groups = new Map<string, FilterGroup>();
  /** What each event's `size` was priced from, for clients pricing at another size (kept as long as the event). */
  private readonly sizeInputs = new WeakMap<OpportunityEventDto, SizeInputs>();
  private lastDelivered = 0;
  private clients = 0;

  constructor(
    private readonly netReferenceUsdt: number,
    private readonly now: () => number,
  ) {}

  /** Remembers the books and costs an event was sized from (before it is delivered). */
  sizedFrom(event: OpportunityEventDto, inputs: SizeInputs): void {
    this.sizeInputs.set(event, inputs);
  }

  /**
   * Hands an event to the replay ring and the clients. Ids must increase; one not above the last
   * delivered is dropped, so an event relayed twice (a re-read after reconnecting) reaches nobody twice.
   */
  deliver({ id, at, event }: PublishedOpportunity): void {
    if (id <= this.lastDelivered) return;
    this.lastDelivered = id;
    const pricings = this.pricings(id, event, null);
    this.ring.push(id, at, pricings.for(null).frame(), event);
    for (const group of this.groups.values()) {
      const priced = pricings.for(group.filter);
      if (group.filter === null || matchesFilter(group.filter, priced.event)) group.subject.next(priced.frame());
    }
  }

  /** The id of the newest event delivered here (0 before any). */
  get lastDeliveredId(): number {
    return this.lastDelivered;
  }

  /**
   * Frames after `lastEventId` still in the ring that pass the client's filter, then live ones.
   * Both happen synchronously in subscribe, so no event can slip between replay and live: nothing
   * lost, nothing twice.
   */
  frames(lastEventId: number | null, clientFilter: OpportunityFilter | null): Observable<SseFrame> {
    return new Observable<SseFrame>((subscriber) => {
      if (lastEventId !== null) {
        for (const entry of this.ring.entriesAfter(lastEventId, this.now())) {
          const priced = this.pricings(entry.id, entry.meta, entry.frame).for(clientFilter);
          if (!clientFilter || matchesFilter(clientFilter, priced.event)) subscriber.next(priced.frame());
        }
      }
      const group = this.join(clientFilter);
      this.clients += 1;
      const subscription = group.subject.subscribe(subscriber);
      return () => {
        this.clients -= 1;
        subscription.unsubscribe();
        this.leave(clientFilter?.key ?? '', group);
      };
    });
  }

  /** A published event as each filter prices it; without the event's books, every filter sees it as published. */
  pricingsOf({ id, event }: PublishedOpportunity): EventPricings {
    return this.pricings(id, event, null);
  }

  get clientCount(): number {
    return this.clients;
  }

  /** Distinct filters with at least one client (the unfiltered stream counts as one). */
  get filterGroupCount(): number {
    return this.groups.size;
  }

  /** Ends every client's stream (shutdown). */
  complete(): void {
    for (const group of this.groups.values()) group.subject.complete();
    this.groups.clear();
  }

  private pricings(id: number, event: OpportunityEventDto, frame: SseFrame | null): EventPricings {
    return new EventPricings(id, event, frame, this.sizeInputs.get(event), this.netReferenceUsdt);
  }

  private join(clientFilter: OpportunityFilter | null): FilterGroup {
    const key = clientFilter?.key ?? '';
    let group = this.groups.get(key);
    if (!group) {
      group = { filter: clientFilter, subject: new Subject<SseFrame>(), clients: 0 };
      this.groups.set(key, group);
    }
    group.clients += 1;
    return group;
  }

  private leave(key: string, group: FilterGroup): void {
    group.clients -= 1;
    if (group.clients === 0 && this.groups.get(key) === group) this.groups.delete(key);
  }
}
