import { type Observable, Subject } from 'rxjs';
import type { QuoteTick } from './market-data-source.js';

/**
 * The one shared stream of quote ticks. An interface, so that a multi-instance deployment can
 * carry ticks over a message bus without touching the consumers.
 */
export interface QuoteTickBus {
  readonly ticks: Observable<QuoteTick>;
  publish(tick: QuoteTick): void;
  complete(): void;
}

/** In-process bus: one Subject, so every consumer shares the same upstream. */
export class InProcessQuoteTickBus implements QuoteTickBus {
  private readonly subject = new Subject<QuoteTick>();
  readonly ticks: Observable<QuoteTick> = this.subject.asObservable();

  publish(tick: QuoteTick): void {
    this.subject.next(tick);
  }

  complete(): void {
    this.subject.complete();
  }
}
