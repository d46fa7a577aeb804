import { Inject, Injectable } from '@nestjs/common';
import { Observable, filter, map, merge, share, timer } from 'rxjs';
import { MARKET_DATA_MISSING_FRAME } from '../common/sse/market-data-missing.js';
import type { SseFrame } from '../common/sse/sse-frame.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { RedisLink } from './redis-link.js';

export const GAP_FRAME_MS = 1000;

/**
 * An API instance gets its market data through Redis only. While Redis does not answer,
 * its opportunity and price streams stay open and send the `market-data-missing` rule's `market-data-missing` event every
 * second instead of data (a price snapshot would only repeat frozen quotes); when Redis returns
 * the data frames resume by themselves. Never active in a process that runs its own feeds.
 */
@Injectable()
export class MarketDataGap {
  private readonly servesOnly: boolean;
  /** One shared 1 s clock for every client (habit 5), running only while a stream listens. */
  private readonly missingFrames: Observable<SseFrame>;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly redis: RedisLink,
  ) {
    this.servesOnly = config.scaleOut.role === 'api';
    this.missingFrames = timer(0, GAP_FRAME_MS).pipe(
      filter(() => this.missing),
      map(() => MARKET_DATA_MISSING_FRAME),
      share(),
    );
  }

  get missing(): boolean {
    return this.servesOnly && !this.redis.state.up;
  }

  /** An event stream (nothing to hold back): its frames, plus the missing-data event while data is missing. */
  alongside(frames: Observable<SseFrame>): Observable<SseFrame> {
    return this.servesOnly ? merge(frames, this.missingFrames) : frames;
  }

  /** A state stream: its frames while data flows, the missing-data event instead while it does not. */
  instead(frames: Observable<SseFrame>): Observable<SseFrame> {
    return this.servesOnly ? merge(frames.pipe(filter(() => !this.missing)), this.missingFrames) : frames;
  }
}
