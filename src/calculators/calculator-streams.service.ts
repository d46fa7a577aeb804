import { Injectable, Logger } from '@nestjs/common';
import {
  type Observable,
  ReplaySubject,
  defer,
  exhaustMap,
  filter,
  finalize,
  map,
  share,
  startWith,
  switchMap,
  takeUntil,
  timer,
} from 'rxjs';
import { MARKET_DATA_MISSING_FRAME } from '../common/sse/market-data-missing.js';
import { type SseFrame, dataFrame } from '../common/sse/sse-frame.js';
import type { CalculatorEntity } from './calculator.entity.js';
import { CalculatorMarketData } from './calculator-market-data.service.js';
import { CALCULATOR_TICK_MS } from './calculators.constants.js';
import { CalculatorsService } from './calculators.service.js';
import { CalculatorPnlDto } from './dto/calculator-pnl.dto.js';
import type { CalculatorPositionDto } from './dto/calculator-position.dto.js';
import { computePnl } from './pnl.engine.js';
import { errorFields } from '../common/logging/json-logger.js';

/**
 * The 1-second PNL streams (rules: calculator, streams). All clients of one (email, ticker, exchange) share
 * one upstream: one timer, one market-data read and one serialised frame per tick. It starts
 * with the first client, follows saves of the entry, ends when the entry is deleted, and stops
 * (timer, subscriptions, map entry) when the last client leaves.
 */
@Injectable()
export class CalculatorStreamsService {
  private readonly logger = new Logger('CalculatorStreams');
  private readonly streams = new Map<string, Observable<SseFrame>>();

  constructor(
    private readonly calculators: CalculatorsService,
    private readonly marketData: CalculatorMarketData,
  ) {}

  /** Throws 404 before anything opens; the frames are shared from the first subscription on. */
  async open(position: CalculatorPositionDto): Promise<Observable<SseFrame>> {
    const entry = await this.calculators.getEntry(position.email, position.ticker);
    const key = JSON.stringify([entry.email, entry.ticker, position.exchange]);
    // Looked up when the hub subscribes, so a stream torn down meanwhile is rebuilt, not reused.
    return defer(() => this.shared(key, entry, position.exchange));
  }

  /** Upstreams currently running: for leak checks. */
  get activeStreams(): number {
    return this.streams.size;
  }

  private shared(key: string, entry: CalculatorEntity, exchange: string): Observable<SseFrame> {
    const existing = this.streams.get(key);
    if (existing) return existing;
    const frames$ = this.frames(entry, exchange).pipe(
      finalize(() => {
        if (this.streams.get(key) === frames$) this.streams.delete(key);
      }),
      // A client joining mid-second gets the current frame at once instead of waiting.
      share({ connector: () => new ReplaySubject<SseFrame>(1), resetOnRefCountZero: true, resetOnComplete: true, resetOnError: true }),
    );
    this.streams.set(key, frames$);
    return frames$;
  }

  private frames(initial: CalculatorEntity, exchange: string): Observable<SseFrame> {
    const changes$ = this.calculators.changes$.pipe(filter((c) => c.email === initial.email && c.ticker === initial.ticker));
    const deleted$ = changes$.pipe(filter((c) => c.entry === null));
    const saved$ = changes$.pipe(
      map((c) => c.entry),
      filter((e): e is CalculatorEntity => e !== null),
    );
    return saved$.pipe(
      startWith(initial),
      // A save restarts the beat so the new figures show at once.
      switchMap((entry) =>
        // exhaustMap: a slow read skips ticks instead of queueing them behind each other.
        timer(0, CALCULATOR_TICK_MS).pipe(exhaustMap(() => defer(() => this.frame(entry, exchange)))),
      ),
      filter((frame): frame is SseFrame => frame !== null),
      takeUntil(deleted$),
    );
  }

  /** One tick: the PNL frame, the `streams` rule missing frame, or nothing when the read failed. */
  private async frame(entry: CalculatorEntity, exchange: string): Promise<SseFrame | null> {
    try {
      const market = await this.marketData.forStream(entry.ticker, exchange);
      if (!market) return MARKET_DATA_MISSING_FRAME;
      return dataFrame(CalculatorPnlDto.from(entry, exchange, entry, computePnl(entry, market), market.at));
    } catch (err) {
      // A passing database hiccup costs this tick only; the stream and its clients stay.
      this.logger.warn({ msg: 'calculator tick failed', ticker: entry.ticker, exchange, error: errorFields(err) });
      return null;
    }
  }
}
