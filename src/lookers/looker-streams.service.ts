import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Observable, type Subscriber } from 'rxjs';
import { batchFrames, dataFrame, type SseFrame } from '../common/sse/sse-frame.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { ExchangeName } from '../market-model/exchanges.js';
import { QuoteBook } from '../market-data/quote-book.js';
import { lookerPriceEvent, type LookerWatch } from './looker-price.engine.js';
import { type ClockBeat, LookerStreamClock } from './looker-stream.clock.js';
import { LOOKER_STREAM_CLOCK } from './lookers.constants.js';

/** Everything streaming one looker: its watch, its clients, and its single clock subscription. */
interface LookerChannel {
  watch: LookerWatch;
  readonly clients: Set<Subscriber<SseFrame>>;
  readonly leaveClock: () => void;
}

export interface LookerStreamStats {
  /** Lookers with at least one open stream. */
  lookers: number;
  clients: number;
  clockSubscribers: number;
  clockRunning: boolean;
}

/**
 * The looker streams (rules: lookers). Clients of the same looker share one channel; each channel
 * is one listener of the shared clock and builds its batch ONCE per beat (O(cryptos)), and the
 * same bytes go to all its clients. Within a beat, the frame of one (exchange, market, ticker)
 * is serialised once and reused by every looker that watches it.
 */
@Injectable()
export class LookerStreamsService implements OnApplicationShutdown {
  private readonly channels = new Map<string, LookerChannel>();
  private readonly feedExchanges: ReadonlySet<ExchangeName>;
  private beatFrames = { seq: -1, frames: new Map<string, SseFrame>() };

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly book: QuoteBook,
    @Inject(LOOKER_STREAM_CLOCK) private readonly clock: LookerStreamClock,
  ) {
    // Quotes arrive only over the realtime feeds; without them every event is stale (rules: staleness).
    const { websocketEnabled, exchanges } = config.marketData;
    this.feedExchanges = new Set(websocketEnabled ? exchanges : []);
  }

  /**
   * The frames of one client: the current batch at once (a trader should not stare at an empty
   * screen for up to a second), then the shared batch of every beat.
   */
  frames(lookerId: string, watch: LookerWatch): Observable<SseFrame> {
    return new Observable<SseFrame>((subscriber) => {
      const channel = this.channelOf(lookerId, watch);
      channel.clients.add(subscriber);
      const first = this.batch(channel.watch, { seq: -1, at: this.clock.now() }, false);
      if (first) subscriber.next(first);
      return () => this.leave(lookerId, channel, subscriber);
    });
  }

  /** A PATCHed looker: its open streams carry the new cryptos from the next beat. */
  update(lookerId: string, watch: LookerWatch): void {
    const channel = this.channels.get(lookerId);
    if (channel) channel.watch = watch;
  }

  /** A deleted looker: its open streams end cleanly. */
  end(lookerId: string): void {
    const channel = this.channels.get(lookerId);
    for (const client of [...(channel?.clients ?? [])]) client.complete();
  }

  stats(): LookerStreamStats {
    let clients = 0;
    for (const channel of this.channels.values()) clients += channel.clients.size;
    return {
      lookers: this.channels.size,
      clients,
      clockSubscribers: this.clock.subscriberCount,
      clockRunning: this.clock.running,
    };
  }

  onApplicationShutdown(): void {
    for (const id of [...this.channels.keys()]) this.end(id);
    this.clock.stop();
  }

  private channelOf(lookerId: string, watch: LookerWatch): LookerChannel {
    const existing = this.channels.get(lookerId);
    if (existing) return existing;
    const clients = new Set<Subscriber<SseFrame>>();
    const channel: LookerChannel = {
      watch,
      clients,
      leaveClock: this.clock.subscribe((beat) => this.onBeat(channel, beat)),
    };
    this.channels.set(lookerId, channel);
    return channel;
  }

  private leave(lookerId: string, channel: LookerChannel, subscriber: Subscriber<SseFrame>): void {
    channel.clients.delete(subscriber);
    if (channel.clients.size > 0) return;
    channel.leaveClock();
    if (this.channels.get(lookerId) === channel) this.channels.delete(lookerId);
    if (this.channels.size === 0) this.beatFrames = { seq: -1, frames: new Map() };
  }

  private onBeat(channel: LookerChannel, beat: ClockBeat): void {
    const frame = this.batch(channel.watch, beat, true);
    if (!frame) return;
    // A client may leave while it is written to (buffer bound): iterating a Set tolerates that.
    for (const client of channel.clients) client.next(frame);
  }

  /** All events of one cycle as ONE frame, so they are flushed in one write; null without cryptos. */
  private batch(watch: LookerWatch, beat: ClockBeat, shareInBeat: boolean): SseFrame | null {
    const { exchange, market, tickers } = watch;
    if (tickers.length === 0) return null;
    if (shareInBeat && this.beatFrames.seq !== beat.seq) this.beatFrames = { seq: beat.seq, frames: new Map() };
    const shared = shareInBeat ? this.beatFrames.frames : null;
    const context = { now: beat.at, hasFeed: this.feedExchanges.has(exchange) };
    const frames: SseFrame[] = [];
    for (const ticker of tickers) {
      // Ticker first: the distinguishing part of the key, so Map hashing/compare fails fast.
      const key = `${ticker}|${market}|${exchange}`;
      let frame = shared?.get(key);
      if (!frame) {
        frame = dataFrame(lookerPriceEvent(this.book, exchange, market, ticker, context));
        shared?.set(key, frame);
      }
      frames.push(frame);
    }
    return batchFrames(frames);
  }
}
