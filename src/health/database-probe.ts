import { Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { pgliteLastStatementAt } from '../database/pglite-driver.js';

/** How often the database is pinged, and how long a ping may take before it counts as down. */
export const PROBE_INTERVAL_MS = 1000;
export const PROBE_TIMEOUT_MS = 3000;

/**
 * The database's liveness, pinged in the background. /health reads the last answer instead of
 * queueing its own query behind the requests in flight: behind 350 parallel heavy requests a
 * liveness probe waited for a pool connection (PostgreSQL) or for the embedded engine's one
 * thread (PGlite), and an orchestrator would have restarted a service that was merely busy.
 * Down: the last ping failed, or one has been pending longer than PROBE_TIMEOUT_MS while no
 * other statement finished either (the embedded database answers its queue in order).
 */
@Injectable()
export class DatabaseProbe implements OnApplicationBootstrap, OnModuleDestroy {
  private lastOk = false;
  private pendingSince: number | null = null;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly dataSource: DataSource) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.ping();
    this.timer = setInterval(() => void this.ping(), PROBE_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
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
      await this.dataSource.query('SELECT 1');
      this.lastOk = true;
    } catch {
      this.lastOk = false;
    } finally {
      this.pendingSince = null;
    }
  }
}
