import type { Market } from '../market-model/exchanges.js';
import { roundToStep } from './instruments.js';
import type { MarketState, SimQuote } from './market-state.js';
import type { ExchangeProtocol } from './venues/protocol.js';

/** A placeholder time no real message carries (year 2216): rendered once, then replaced per send. */
const STAMP_MS = 7_777_777_777_777;
const STAMP_S = String(Math.floor(STAMP_MS / 1000));

/**
 * A pre-serialised frame: the exchange's own rendering of a quote, cut where its timestamps go.
 * Sending costs a few string joins; `stamp` fills every millisecond field with the send time
 * and a venue's seconds field (where it has one) with the same time in seconds.
 */
export class FrameTemplate {
  private readonly parts: string[][];

  constructor(rendered: string) {
    this.parts = rendered.split(String(STAMP_MS)).map((part) => part.split(STAMP_S));
  }

  stamp(now: number): string {
    const seconds = String(Math.floor(now / 1000));
    return this.parts.map((part) => part.join(seconds)).join(String(now));
  }
}

/** The two frames a market alternates between in load mode: every message is a change. */
export function templatesOf(protocol: ExchangeProtocol, state: MarketState, quote: SimQuote): [FrameTemplate, FrameTemplate] {
  const tick = state.instrument(quote.ticker)?.tick ?? 1e-8;
  const up = { ...quote, bid: roundToStep(quote.bid + tick, tick), ask: roundToStep(quote.ask + tick, tick), updatedAt: STAMP_MS };
  return [new FrameTemplate(protocol.render({ ...quote, updatedAt: STAMP_MS }, state)), new FrameTemplate(protocol.render(up, state))];
}

/** One subscribed market of one connection, as the generator sends to it. */
export interface LoadTarget {
  key: string;
  send(frames: readonly string[]): void;
  market: Market;
  templates: [FrameTemplate, FrameTemplate];
}

export interface LoadOptions {
  /** Messages per second in total, spread over every subscribed market. */
  rate: number;
  /** Period of the generator's timer. */
  stepMs?: number;
  /** Share of each second's messages sent in its first tenth (bursts); 0.1 is flat. */
  burstShare?: number;
}

/**
 * Load mode: pushes `rate` messages per second over loopback, round-robin over every
 * subscribed market of every connection, each message a change of that market's top of book
 * with the exchange's timestamps set to the send time. The first tenth of every second carries
 * `burstShare` of its messages (a burst), the rest are spread evenly. Frames are pre-serialised
 * per market and each step's frames for one connection are written together, so the
 * simulator is not the bottleneck of a benchmark.
 */
export class LoadGenerator {
  private timer: NodeJS.Timeout | null = null;
  private targets: LoadTarget[] = [];
  private cursor = 0;
  private flip = 0;
  private secondStart = 0;
  private sentThisSecond = 0;
  private options: Required<LoadOptions> = { rate: 0, stepMs: 5, burstShare: 0.2 };
  /** Messages sent since the simulator started. */
  sent = 0;

  constructor(private readonly collectTargets: () => LoadTarget[], private readonly now: () => number = Date.now) {}

  get rate(): number {
    return this.timer ? this.options.rate : 0;
  }

  start(options: LoadOptions): void {
    this.stop();
    if (options.rate <= 0) return;
    this.options = { stepMs: 5, burstShare: 0.2, ...options };
    this.targets = this.collectTargets();
    this.secondStart = this.now();
    this.sentThisSecond = 0;
    this.timer = setInterval(() => this.step(), this.options.stepMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Messages due by now in the current second, following the burst profile. */
  dueBy(elapsedMs: number): number {
    const { rate, burstShare } = this.options;
    const t = Math.min(1, elapsedMs / 1000);
    const share = t <= 0.1 ? (t / 0.1) * burstShare : burstShare + ((t - 0.1) / 0.9) * (1 - burstShare);
    return Math.floor(rate * share);
  }

  private step(): void {
    const now = this.now();
    if (now - this.secondStart >= 1000) {
      // Finish the second that ended, then start the current one.
      this.emit(this.options.rate - this.sentThisSecond, now);
      this.secondStart += 1000 * Math.floor((now - this.secondStart) / 1000);
      this.sentThisSecond = 0;
      // Subscriptions change with reconnects: refresh the targets once a second.
      this.targets = this.collectTargets();
    }
    this.emit(this.dueBy(now - this.secondStart) - this.sentThisSecond, now);
  }

  private emit(count: number, now: number): void {
    if (count <= 0 || this.targets.length === 0) return;
    const byConnection = new Map<LoadTarget['send'], string[]>();
    for (let k = 0; k < count; k++) {
      if (this.cursor >= this.targets.length) {
        this.cursor = 0;
        this.flip ^= 1;
      }
      const target = this.targets[this.cursor++];
      if (!target) continue;
      let frames = byConnection.get(target.send);
      if (!frames) byConnection.set(target.send, (frames = []));
      frames.push(target.templates[this.flip].stamp(now));
    }
    for (const [send, frames] of byConnection) send(frames);
    this.sentThisSecond += count;
    this.sent += count;
  }
}
