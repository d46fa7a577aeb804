import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { POOL_TIMINGS } from '../database/database-options.js';
import { pgliteLastStatementAt } from '../database/pglite-driver.js';

/** How often the database is pinged, and how long a ping may take before it counts as down. */
export const PROBE_INTERVAL_MS = 1000;
export const PROBE_TIMEOUT_MS = 3000;

/**
 * The database's liveness, pinged in the background. /health reads the last answer instead of
 * queueing its own query behind the requests in flight: behind 350 parallel heavy requests a
 * liveness probe waited for a pool connection (PostgreSQL) or for the embedded engine's one
 * thread (PGlite), and an orchestrator would have restarted a service that was merely busy.
 * - PostgreSQL: the ping has a connection of its own, outside the pool, so a pool that is busy
 *   for longer than PROBE_TIMEOUT_MS (50 imports of 2,000 rows) is not a database that is down.
 * - PGlite: one session answers its queue in order, so a ping pending longer than
 *   PROBE_TIMEOUT_MS counts as down only while no other statement finished either.
 */
@Injectable()
export class DatabaseProbe implements OnApplicationBootstrap, OnModuleDestroy {
  private lastOk = false;
  private pendingSince: number | null = null;
  private timer: NodeJS.Timeout | undefined;
  private readonly connection: ProbeConnection | null;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.connection = config.database.kind === 'postgres' ? new ProbeConnection(config.database.url) : null;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.ping();
    this.timer = setInterval(() => void this.ping(), PROBE_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.connection?.close();
  }

  get up(): boolean {
    const now = Date.now();
    if (!this.lastOk) return false;
    return this.pendingSince === null || now - this.pendingSince < PROBE_TIMEOUT_MS || now - pgliteLastStatementAt() < PROBE_TIMEOUT_MS;
  }

  private async ping(): Promise<void> {
    if (this.pendingSince !== null) return;
    this.pendingSince = Date.now();
    try {
      await (this.connection ? this.connection.ping() : this.dataSource.query('SELECT 1'));
      this.lastOk = true;
    } catch {
      this.lastOk = false;
    } finally {
      this.pendingSince = null;
    }
  }
}

/** One PostgreSQL session for the probe alone, opened again after any failure. */
class ProbeConnection {
  private client: pg.Client | null = null;

  constructor(private readonly url: string) {}

  async ping(): Promise<void> {
    try {
      this.client ??= await this.connect();
      await this.client.query('SELECT 1');
    } catch (err) {
      await this.close();
      throw err;
    }
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: this.url,
      connectionTimeoutMillis: POOL_TIMINGS.connectTimeoutMs,
      query_timeout: PROBE_TIMEOUT_MS,
      application_name: 'arbitrage-monitor health probe',
    });
    // A session ended by the server (restart, pg_terminate_backend) is noticed by the next ping.
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    return client;
  }
}
