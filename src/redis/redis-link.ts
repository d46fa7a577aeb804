import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Redis } from 'ioredis';
import { BehaviorSubject, type Observable, distinctUntilChanged } from 'rxjs';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { cleanText } from '../common/logging/json-logger.js';

/** Whether Redis answers, and why not. */
export interface RedisState {
  readonly up: boolean;
  readonly reason: string | null;
}

/**
 * The process's connections to Redis: one for commands, one for subscriptions and one
 * for blocking stream reads, since a connection in subscriber or blocking mode serves nothing else.
 * Absent (`enabled` false) when REDIS_URL is unset: ROLE=all then runs exactly as before.
 * ioredis reconnects by itself; `state$` follows it so /health and the streams can say so.
 */
@Injectable()
export class RedisLink implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Redis');
  private readonly clients: Redis[] = [];
  private readonly stateSubject = new BehaviorSubject<RedisState>({ up: false, reason: 'connecting' });
  readonly state$: Observable<RedisState> = this.stateSubject.pipe(distinctUntilChanged((a, b) => a.up === b.up && a.reason === b.reason));
  readonly keyPrefix: string;
  private readonly url: string | null;
  private commandClient: Redis | null = null;
  private closing = false;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.url = config.scaleOut.redis?.url ?? null;
    this.keyPrefix = config.scaleOut.redis?.keyPrefix ?? '';
  }

  get enabled(): boolean {
    return this.url !== null;
  }

  get state(): RedisState {
    return this.enabled ? this.stateSubject.value : { up: true, reason: null };
  }

  key(name: string): string {
    return `${this.keyPrefix}${name}`;
  }

  /** The shared command connection; its state is the one /health reports. */
  get commands(): Redis {
    this.commandClient ??= this.connect('commands', true);
    return this.commandClient;
  }

  /** A connection of its own, for SUBSCRIBE or XREAD BLOCK. */
  dedicated(name: string): Redis {
    return this.connect(name, false);
  }

  /** Connects at start, so /health tells from the first request whether Redis answers. */
  onModuleInit(): void {
    if (this.enabled) void this.commands;
  }

  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    await Promise.all(this.clients.map((c) => c.quit().catch(() => c.disconnect())));
    this.clients.length = 0;
    this.stateSubject.complete();
  }

  private connect(name: string, tracksState: boolean): Redis {
    if (!this.url) throw new Error('REDIS_URL is not set');
    const client = new Redis(this.url, {
      connectionName: `arbitrage-monitor:${name}`,
      // A command must fail soon while Redis is away (the callers fall back or report), not wait for it.
      maxRetriesPerRequest: 1,
      retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
    });
    client.on('error', (err: Error) => {
      if (tracksState) this.down(err.message || 'connection error');
    });
    if (tracksState) {
      client.on('ready', () => this.stateSubject.next({ up: true, reason: null }));
      // 'close' follows 'error'; keep the error's reason, it says more.
      client.on('close', () => {
        if (this.stateSubject.value.up) this.down('connection closed');
      });
    }
    this.clients.push(client);
    return client;
  }

  private down(reason: string): void {
    if (this.closing) return;
    if (this.stateSubject.value.up) this.logger.warn({ msg: 'Redis unreachable', reason: cleanText(reason) });
    this.stateSubject.next({ up: false, reason: `redis does not answer: ${reason}` });
  }
}
