import { describe, expect, it } from 'vitest';
import { decideFeed, FeedOutages } from './alert-feed.engine.js';

const MIN = 120_000;

describe('decideFeed', () => {
  it('stays quiet at exactly the minutes, notifies 1 ms later, once per outage', () => {
    expect(decideFeed(null, 1000, 1000 + MIN, MIN)).toBeNull();
    const down = decideFeed(null, 1000, 1001 + MIN, MIN);
    expect(down).toEqual({ notify: 'down', episode: 'down:1000' });
    const memory = { notifiedAt: 1001 + MIN, value: 1, episode: 'down:1000' };
    expect(decideFeed(memory, 1000, 10 * MIN, MIN)).toBeNull();
  });

  it('notifies the recovery of a notified outage, and only once', () => {
    const memory = { notifiedAt: 5, value: 1, episode: 'down:1000' };
    expect(decideFeed(memory, null, 9 * MIN, MIN)).toEqual({ notify: 'recovered', episode: 'up:1000', downSince: 1000 });
    expect(decideFeed({ ...memory, episode: 'up:1000' }, null, 9 * MIN, MIN)).toBeNull();
  });

  it('a short outage that was never notified has no recovery note', () => {
    expect(decideFeed(null, null, 5, MIN)).toBeNull();
  });

  it('a new outage after a recovery notifies again', () => {
    expect(decideFeed({ notifiedAt: 0, value: 1, episode: 'up:1000' }, 50_000, 50_001 + MIN, MIN)).toEqual({ notify: 'down', episode: 'down:50000' });
  });
});

describe('FeedOutages', () => {
  it('keeps the first moment down until the feed is back', () => {
    const o = new FeedOutages();
    o.observe('okx', false, 10);
    o.observe('okx', false, 20);
    expect(o.downSince('okx')).toBe(10);
    o.observe('okx', true, 30);
    expect(o.downSince('okx')).toBeNull();
  });
});
