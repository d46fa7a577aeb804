import { describe, expect, it } from 'vitest';
import type { AppConfig } from '../config/app-config.js';
import { RouteEpisodeRecorder } from './route-episode-recorder.service.js';
import type { RouteEpisodeRepository } from './route-episode.repository.js';
import { MAX_PENDING_EPISODES, type RouteEpisode, RouteEpisodeQueue } from './route-episodes.js';

const on = { history: { recorderEnabled: true } } as unknown as AppConfig;
const episode = (n: number): RouteEpisode => ({
  ticker: 'BTC-USDT', buyExchange: 'binance', sellExchange: 'okx', openedAt: new Date(n), closedAt: new Date(n + 1),
  peakGrossPercent: 0.2, peakNetPercent: 0, peakMaxSizeUsdt: null, transferable: false, costsEstimated: true,
});

describe('route episode queue and recorder', () => {
  it('holds at most MAX_PENDING_EPISODES and counts what it drops', () => {
    const queue = new RouteEpisodeQueue(on);
    for (let i = 0; i < MAX_PENDING_EPISODES + 3; i++) queue.push(episode(i));
    const { episodes, dropped } = queue.drain();
    expect(episodes).toHaveLength(MAX_PENDING_EPISODES);
    expect(episodes[0].openedAt.getTime()).toBe(0);
    expect(dropped).toBe(3);
    expect(queue.drain()).toEqual({ episodes: [], dropped: 0 });
  });

  it('a failed write keeps the episodes for the next round, ahead of newer ones', async () => {
    const queue = new RouteEpisodeQueue(on);
    let fail = true;
    const stored: RouteEpisode[] = [];
    const repository = { insert: (e: readonly RouteEpisode[]) => (fail ? Promise.reject(new Error('db down')) : Promise.resolve(void stored.push(...e))) };
    const recorder = new RouteEpisodeRecorder(queue, repository as unknown as RouteEpisodeRepository);
    queue.push(episode(1));
    queue.push(episode(2));
    await expect(recorder.storePending()).rejects.toThrow('db down');
    queue.push(episode(3));
    fail = false;
    expect(await recorder.storePending()).toBe(3);
    expect(stored.map((e) => e.openedAt.getTime())).toEqual([1, 2, 3]);
  });
});
