import { Worker } from 'node:worker_threads';
import { type BackoffPolicy, backoffDelay } from '../ccxt/backoff.js';
import type { Clock } from '../clock.js';
import type { ExchangeName, Market } from '../../market-model/exchanges.js';
import type { ConnectionEvent } from '../market-data-source.js';
import type { HeldBookEntry } from '../depth/depth-feeds.js';
import type { FromWorker, IngestWorkerConfig, IngestWorkerStats, RestMethod, ToWorker, WorkerError } from './ingest-protocol.js';
import type { WorkerScript } from './worker-script.js';

export interface IngestWorkerHooks {
  onBatch(batch: Float64Array): void;
  /** A batch of changed order books (depth). */
  onBooks?(batch: Float64Array): void;
  onState(event: ConnectionEvent): void;
  onStats(stats: IngestWorkerStats): void;
  onExit(reason: string): void;
}

export interface IngestWorkerOptions {
  config: IngestWorkerConfig;
  script: WorkerScript;
  clock: Clock;
  /** Delay before restarting a worker that died, by consecutive failure. */
  restart: BackoffPolicy;
  /** A worker up this long without dying resets the restart backoff. */
  stableAfterMs: number;
  /** How long close() waits for the worker to close its feeds before terminating it. */
  closeTimeoutMs: number;
  /** V8 heap limits of the worker thread (see WORKER_YOUNG_GENERATION_MB). */
  heap: { oldGenerationMb: number; youngGenerationMb: number };
  hooks: IngestWorkerHooks;
  random?: () => number;
}

interface Watch {
  exchange: ExchangeName;
  market: Market;
  tickers: string[];
  indexes: number[];
}

interface PendingCall {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** An error thrown in the worker, with its ccxt class name kept (`NetworkError: …` in logs). */
export class IngestWorkerError extends Error {
  constructor({ name, message }: WorkerError) {
    super(message);
    this.name = name;
  }
}

/**
 * One ingest worker thread as the serving thread sees it: started on first use, its watches
 * remembered so that a worker that dies is restarted (with backoff) and resumes every feed,
 * REST calls answered through request ids, calls in flight when it dies rejected.
 */
export class IngestWorker {
  private worker: Worker | null = null;
  private readonly watches: Watch[] = [];
  /** The latest held-books set per exchange and market, sent again to a restarted worker. */
  private readonly depth = new Map<string, Extract<ToWorker, { kind: 'depth' }>>();
  private readonly pending = new Map<number, PendingCall>();
  private nextCallId = 1;
  private failures = 0;
  private startedAt = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  private closing: Promise<void> | null = null;
  /** Restarts after a death, since start. */
  restarts = 0;

  constructor(private readonly options: IngestWorkerOptions) {}

  get exchanges(): readonly ExchangeName[] {
    return this.options.config.exchanges;
  }

  /** The running thread, if any (tests kill it to show a restart). */
  get thread(): Worker | null {
    return this.worker;
  }

  call(method: RestMethod, exchange: ExchangeName, history?: { ticker: string; since: number }): Promise<unknown> {
    return this.request((id) => ({ kind: 'call', id, method, exchange, history }));
  }

  watch(exchange: ExchangeName, market: Market, tickers: string[], indexes: number[]): void {
    if (this.closing) return;
    const watch = { exchange, market, tickers, indexes };
    this.watches.push(watch);
    const worker = this.ensureStarted();
    if (worker) this.send(worker, { kind: 'watch', ...watch });
  }

  /** The books `exchange` should hold in `market`, replacing the set sent before. */
  holdBooks(exchange: ExchangeName, market: Market, books: HeldBookEntry[]): void {
    if (this.closing) return;
    const message = { kind: 'depth', exchange, market, books } as const;
    this.depth.set(`${exchange}|${market}`, message);
    const worker = this.ensureStarted();
    if (worker) this.send(worker, message);
  }

  /** A full GC in the worker; resolves with its stats after it (tests and benchmarks). */
  async collectGarbage(): Promise<IngestWorkerStats> {
    return (await this.request((id) => ({ kind: 'gc', id }))) as IngestWorkerStats;
  }

  private request(message: (id: number) => ToWorker): Promise<unknown> {
    if (this.closing) return Promise.reject(new Error('market data is shutting down'));
    const worker = this.ensureStarted();
    if (!worker) return Promise.reject(new IngestWorkerError({ name: 'NetworkError', message: 'ingest worker restarting' }));
    const id = this.nextCallId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.send(worker, message(id));
    });
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const worker = this.worker;
    if (!worker) return;
    const closed = new Promise<void>((resolve) => {
      worker.on('message', (m: FromWorker) => m.kind === 'closed' && resolve());
      worker.once('exit', () => resolve());
    });
    this.send(worker, { kind: 'close' });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([closed, new Promise<void>((resolve) => (timer = setTimeout(resolve, this.options.closeTimeoutMs)))]);
    clearTimeout(timer);
    await worker.terminate();
  }

  private ensureStarted(): Worker | null {
    if (this.worker || this.restartTimer) return this.worker;
    const worker = new Worker(this.options.script.filename, {
      workerData: this.options.config,
      execArgv: this.options.script.execArgv,
      resourceLimits: { maxOldGenerationSizeMb: this.options.heap.oldGenerationMb, maxYoungGenerationSizeMb: this.options.heap.youngGenerationMb },
      name: `ingest:${this.options.config.exchanges.join(',')}`,
    });
    this.worker = worker;
    this.startedAt = this.options.clock.now();
    worker.on('message', (m: FromWorker) => this.onMessage(m));
    worker.on('error', (err: Error) => this.onDeath(worker, `${err.name}: ${err.message}`));
    worker.on('exit', (code) => this.onDeath(worker, `exited with code ${code}`));
    for (const watch of this.watches) this.send(worker, { kind: 'watch', ...watch });
    for (const message of this.depth.values()) this.send(worker, message);
    return worker;
  }

  private onMessage(m: FromWorker): void {
    switch (m.kind) {
      case 'ticks':
        this.options.hooks.onBatch(m.batch);
        return;
      case 'books':
        this.options.hooks.onBooks?.(m.batch);
        return;
      case 'state':
        this.options.hooks.onState(m.event);
        return;
      case 'stats':
        this.options.hooks.onStats(m.stats);
        return;
      case 'result': {
        const call = this.pending.get(m.id);
        this.pending.delete(m.id);
        if (m.ok) call?.resolve(m.value);
        else call?.reject(new IngestWorkerError(m.error));
        return;
      }
      case 'closed':
        return;
    }
  }

  private onDeath(worker: Worker, reason: string): void {
    if (this.worker !== worker) return; // 'error' is followed by 'exit': handle the first only
    this.worker = null;
    for (const call of this.pending.values()) call.reject(new IngestWorkerError({ name: 'NetworkError', message: `ingest worker ${reason}` }));
    this.pending.clear();
    this.options.hooks.onExit(reason);
    if (this.closing) return;
    if (this.options.clock.now() - this.startedAt >= this.options.stableAfterMs) this.failures = 0;
    const delay = backoffDelay(this.failures++, this.options.restart, this.options.random);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (this.closing) return;
      this.restarts++;
      this.ensureStarted();
    }, delay);
  }

  private send(worker: Worker, message: ToWorker): void {
    worker.postMessage(message);
  }
}
