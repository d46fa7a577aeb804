import type { Response } from 'express';
import type { Subscription } from 'rxjs';
import type { SseFrame } from './sse-frame.js';
import { PING_FRAME } from './sse-frame.js';

/**
 * How a stream treats a client that does not keep up (rules: streams):
 * - `latest`: state streams (prices, lookers, calculator). A client whose previous frame has
 *   not drained skips the tick and gets the newest state next, never a backlog.
 * - `reliable`: the opportunity stream. Nothing is skipped; a client too far behind is cut off
 *   and catches up by reconnecting with Last-Event-ID.
 */
export type DeliveryPolicy = 'latest' | 'reliable';

export type CloseReason = 'client' | 'buffer' | 'stalled' | 'shutdown' | 'error' | 'source-ended';

export interface ConnectionLimits {
  maxBufferBytes: number;
  stallTimeoutMs: number;
  heartbeatMs: number;
}

export class SseConnection {
  private lastWriteAt: number;
  private skippingSince: number | null = null;
  private subscription: Subscription | null = null;
  private closed = false;
  skippedTicks = 0;

  constructor(
    readonly stream: string,
    readonly ip: string,
    private readonly res: Response,
    private readonly policy: DeliveryPolicy,
    private readonly limits: ConnectionLimits,
    private readonly now: () => number,
    private readonly onClose: (connection: SseConnection, reason: CloseReason) => void,
  ) {
    this.lastWriteAt = now();
    res.on('close', this.handleClientClose);
    res.on('error', this.handleError);
  }

  attach(subscription: Subscription): void {
    if (this.closed) subscription.unsubscribe();
    else this.subscription = subscription;
  }

  deliver(frame: SseFrame): void {
    if (this.closed) return;
    if (this.res.writableLength > this.limits.maxBufferBytes) return this.close('buffer');
    if (this.policy === 'latest' && this.res.writableNeedDrain) return this.skip();
    this.skippingSince = null;
    this.write(frame);
  }

  /** Called by the hub's sweep: heartbeat after silence, and the stalled-client bound. */
  sweep(): void {
    if (this.closed) return;
    const now = this.now();
    if (this.skippingSince !== null && now - this.skippingSince >= this.limits.stallTimeoutMs) {
      return this.close('stalled');
    }
    if (now - this.lastWriteAt >= this.limits.heartbeatMs && !this.res.writableNeedDrain) this.write(PING_FRAME);
  }

  close(reason: CloseReason): void {
    if (this.closed) return;
    this.closed = true;
    this.subscription?.unsubscribe();
    this.subscription = null;
    this.res.off('close', this.handleClientClose);
    this.res.off('error', this.handleError);
    if (reason === 'source-ended') this.res.end();
    // At shutdown the last bytes are flushed, then the socket is closed so the server's close
    // does not wait for an idle keep-alive connection.
    else if (reason === 'shutdown') this.res.end(() => this.res.socket?.destroy());
    else if (reason !== 'client') this.res.destroy();
    this.onClose(this, reason);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  private skip(): void {
    this.skippedTicks += 1;
    this.skippingSince ??= this.now();
    if (this.now() - this.skippingSince >= this.limits.stallTimeoutMs) this.close('stalled');
  }

  private write(frame: SseFrame): void {
    this.res.write(frame.bytes);
    this.lastWriteAt = this.now();
  }

  private readonly handleClientClose = (): void => this.close('client');
  private readonly handleError = (): void => this.close('error');
}
