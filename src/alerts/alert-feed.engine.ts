import type { FiringMemory } from './alert-firing.engine.js';

export type FeedDecision = { notify: 'down'; episode: string } | { notify: 'recovered'; episode: string; downSince: number } | null;

const DOWN = 'down:';
const UP = 'up:';

/**
 * Feed rules notify twice per outage, whatever the cool-down: once when the feed has been down
 * for MORE than `minMs` (at exactly `minMs` not yet), and once when it is back, only if its
 * outage was notified. `downSince` is null while the feed is up.
 */
export function decideFeed(memory: FiringMemory | null, downSince: number | null, now: number, minMs: number): FeedDecision {
  if (downSince !== null) {
    const episode = `${DOWN}${downSince}`;
    if (now - downSince > minMs && memory?.episode !== episode) return { notify: 'down', episode };
    return null;
  }
  if (memory?.episode.startsWith(DOWN)) {
    const since = Number(memory.episode.slice(DOWN.length));
    return { notify: 'recovered', episode: `${UP}${since}`, downSince: since };
  }
  return null;
}

/** When each exchange's feed went down (absent: up). */
export class FeedOutages {
  private readonly since = new Map<string, number>();

  observe(exchange: string, connected: boolean, now: number): void {
    if (connected) this.since.delete(exchange);
    else if (!this.since.has(exchange)) this.since.set(exchange, now);
  }

  downSince(exchange: string): number | null {
    return this.since.get(exchange) ?? null;
  }
}
