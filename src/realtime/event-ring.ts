import type { SseFrame } from '../common/sse/sse-frame.js';

export interface RingLimits {
  /** The `streams` rule: the last 10,000 events… */
  maxEvents: number;
  /** …at most 5 minutes old. */
  maxAgeMs: number;
}

interface Entry<M> {
  readonly id: number;
  readonly at: number;
  readonly frame: SseFrame;
  /** What a replay filter looks at, kept so the frame need not be parsed again. */
  readonly meta: M;
}

/**
 * The recent opportunity frames, for Last-Event-ID replay (rules: streams). A fixed-size circular array:
 * O(1) to add, and replay binary-searches the first id after the client's.
 */
export class EventRing<M = undefined> {
  private readonly entries: (Entry<M> | undefined)[];
  private start = 0;
  private size = 0;

  constructor(private readonly limits: RingLimits) {
    this.entries = new Array<Entry<M> | undefined>(limits.maxEvents);
  }

  push(id: number, at: number, frame: SseFrame, meta: M): void {
    // Frames past the age limit are let go as new ones come, not only when a client replays:
    // otherwise a quiet ring holds 10,000 frames whatever their age (the soak).
    this.expire(at);
    const capacity = this.entries.length;
    if (this.size === capacity) {
      this.entries[this.start] = undefined;
      this.start = (this.start + 1) % capacity;
      this.size -= 1;
    }
    this.entries[(this.start + this.size) % capacity] = { id, at, frame, meta };
    this.size += 1;
  }

  /**
   * Frames with an id greater than `lastId` and younger than the age limit, oldest first; with
   * `keep`, only those whose meta it accepts (a filtered client's replay).
   */
  after(lastId: number, now: number, keep?: (meta: M) => boolean): SseFrame[] {
    this.expire(now);
    const out: SseFrame[] = [];
    for (let i = this.firstAfter(lastId); i < this.size; i += 1) {
      const entry = this.at(i);
      if (entry && (!keep || keep(entry.meta))) out.push(entry.frame);
    }
    return out;
  }

  /** Like `after`, with each entry's id and meta (a replay that re-prices what it sends). */
  entriesAfter(lastId: number, now: number): { id: number; frame: SseFrame; meta: M }[] {
    this.expire(now);
    const out: { id: number; frame: SseFrame; meta: M }[] = [];
    for (let i = this.firstAfter(lastId); i < this.size; i += 1) {
      const entry = this.at(i);
      if (entry) out.push(entry);
    }
    return out;
  }

  get length(): number {
    return this.size;
  }

  /** Position of the first entry with an id above `lastId` (binary search). */
  private firstAfter(lastId: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.at(mid)?.id ?? Infinity) <= lastId) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private expire(now: number): void {
    while (this.size > 0 && now - (this.at(0)?.at ?? now) > this.limits.maxAgeMs) {
      this.entries[this.start] = undefined;
      this.start = (this.start + 1) % this.entries.length;
      this.size -= 1;
    }
  }

  private at(i: number): Entry<M> | undefined {
    return this.entries[(this.start + i) % this.entries.length];
  }
}
