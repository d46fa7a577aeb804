/** One beat of the shared clock; `seq` lets listeners share work done within the same beat. */
export interface ClockBeat {
  readonly seq: number;
  readonly at: number;
}

export type BeatListener = (beat: ClockBeat) => void;

/**
 * The ONE cadence timer of every looker stream (rules: lookers; every second). Listeners are looker
 * channels, not clients, and the timer runs only while at least one is subscribed, so an idle
 * service does no work and 2,000 streams cost one timer, not 2,000.
 */
export class LookerStreamClock {
  private readonly listeners = new Set<BeatListener>();
  private timer: NodeJS.Timeout | null = null;
  private seq = 0;

  constructor(
    readonly intervalMs: number,
    readonly now: () => number = Date.now,
  ) {}

  /** Returns the unsubscribe function; the timer stops with the last listener. */
  subscribe(listener: BeatListener): () => void {
    this.listeners.add(listener);
    if (!this.timer) {
      this.timer = setInterval(() => this.beat(), this.intervalMs);
      // Never what keeps the process alive: the HTTP server does that.
      this.timer.unref();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }

  get running(): boolean {
    return this.timer !== null;
  }

  /** Runs one beat now (the timer calls it; unit tests call it directly). */
  beat(): void {
    const beat: ClockBeat = { seq: ++this.seq, at: this.now() };
    for (const listener of this.listeners) listener(beat);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
