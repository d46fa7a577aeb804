import { type BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Counter, Gauge } from 'prom-client';
import type { Observable } from 'rxjs';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { AppError, ErrorCode } from '../errors/app-error.js';
import { type CloseReason, type DeliveryPolicy, SseConnection } from './sse-connection.js';
import { SSE_HEADERS, type SseFrame } from './sse-frame.js';
import { STREAM_SLOTS, type SseSlot, type StreamSlots } from './stream-slots.js';
import { clientKeyOf } from '../http/request-context.js';

export interface OpenStreamOptions {
  /** Metric label and log name of the stream. */
  stream: string;
  policy: DeliveryPolicy;
}

/**
 * The one SSE transport (rules: streams). Every stream hands it an Observable of pre-built frames; the hub
 * writes the API contract headers, enforces the per-IP cap, bounds each client's buffer, sends the
 * heartbeat from one shared timer, and releases everything when a client leaves.
 */
@Injectable()
export class SseHub implements BeforeApplicationShutdown {
  private readonly connections = new Set<SseConnection>();
  private readonly perIp = new Map<string, number>();
  private sweepTimer: NodeJS.Timeout | null = null;
  private readonly open$: Gauge<'stream'>;
  private readonly disconnects: Counter<'stream' | 'reason'>;
  private readonly skipped: Counter<'stream'>;
  now: () => number = Date.now;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    metrics: MetricsService,
    @Inject(STREAM_SLOTS) private readonly slots: StreamSlots,
  ) {
    const registers = [metrics.registry];
    this.open$ = new Gauge({ name: 'sse_open_streams', help: 'Open SSE streams', labelNames: ['stream'], registers });
    this.disconnects = new Counter({
      name: 'sse_disconnects_total',
      help: 'SSE streams closed, by reason',
      labelNames: ['stream', 'reason'],
      registers,
    });
    this.skipped = new Counter({
      name: 'sse_ticks_skipped_total',
      help: 'Ticks skipped for clients whose previous frame had not drained',
      labelNames: ['stream'],
      registers,
    });
  }

  /**
   * Opens the stream. Call it only after every validation and lookup has passed: errors thrown
   * before this point are answered as JSON; from here on the response is an event stream.
   */
  open(req: Request, res: Response, source: Observable<SseFrame>, options: OpenStreamOptions): void | Promise<void> {
    // Per token when the request authenticated, else per client IP.
    const ip = clientKeyOf(req);
    if ((this.perIp.get(ip) ?? 0) >= this.config.sse.maxPerIp) throw tooManyStreams();
    if (!this.slots.shared) return this.start(req, res, source, options, ip, null);
    // With Redis the cap counts this client's streams on every instance.
    return this.slots.acquire(ip).then((slot) => {
      if (slot === null) throw tooManyStreams();
      this.start(req, res, source, options, ip, slot);
    });
  }

  private start(req: Request, res: Response, source: Observable<SseFrame>, options: OpenStreamOptions, ip: string, slot: SseSlot | null): void {
    // The client may already be gone (it hung up while the request was being handled); its
    // 'close' has fired and will not fire again, so there is nothing to open or to track.
    if (req.socket.destroyed || res.destroyed) return slot?.release();
    if (slot) res.on('close', () => slot.release());
    res.socket?.setNoDelay(true);
    res.writeHead(200, SSE_HEADERS);
    res.flushHeaders();
    const connection = new SseConnection(options.stream, ip, res, options.policy, this.config.sse, this.now, this.onClose);
    this.track(connection);
    connection.attach(
      source.subscribe({
        next: (frame) => connection.deliver(frame),
        error: () => connection.close('error'),
        complete: () => connection.close('source-ended'),
      }),
    );
  }

  /** Open connections and whether the shared sweep timer runs: for leak tests and metrics. */
  stats(): { connections: number; ips: number; sweepTimer: boolean } {
    return { connections: this.connections.size, ips: this.perIp.size, sweepTimer: this.sweepTimer !== null };
  }

  beforeApplicationShutdown(): void {
    for (const connection of [...this.connections]) connection.close('shutdown');
  }

  private track(connection: SseConnection): void {
    this.connections.add(connection);
    this.perIp.set(connection.ip, (this.perIp.get(connection.ip) ?? 0) + 1);
    this.open$.inc({ stream: connection.stream });
    if (!this.sweepTimer) {
      const every = Math.max(50, Math.min(this.config.sse.heartbeatMs, this.config.sse.stallTimeoutMs) / 3);
      this.sweepTimer = setInterval(() => this.sweep(), every);
      this.sweepTimer.unref();
    }
  }

  private sweep(): void {
    for (const connection of this.connections) connection.sweep();
  }

  private readonly onClose = (connection: SseConnection, reason: CloseReason): void => {
    if (!this.connections.delete(connection)) return;
    const left = (this.perIp.get(connection.ip) ?? 1) - 1;
    if (left > 0) this.perIp.set(connection.ip, left);
    else this.perIp.delete(connection.ip);
    this.open$.dec({ stream: connection.stream });
    this.disconnects.inc({ stream: connection.stream, reason });
    if (connection.skippedTicks > 0) this.skipped.inc({ stream: connection.stream }, connection.skippedTicks);
    if (this.connections.size === 0 && this.sweepTimer) {
      clearInterval(this.sweepTimer);
      this.sweepTimer = null;
    }
  };
}

function tooManyStreams(): AppError {
  return new AppError(ErrorCode.RateLimited, 'too many open streams', { 'Retry-After': '1' });
}
