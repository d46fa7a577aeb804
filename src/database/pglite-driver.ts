import { execFile } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { PGlite } from '@electric-sql/pglite';

/**
 * A minimal `pg` look-alike that TypeORM's postgres driver accepts as `driver`, backed by one
 * embedded PGlite session.
 *
 * PGlite has exactly one session, so the pool holds ONE client and lends it to one query runner
 * at a time; others wait in FIFO order. Sharing the session between runners (what the
 * `typeorm-pglite` package does) interleaves their transactions, so one runner's ROLLBACK or
 * COMMIT ends another's work and committed rows get lost.
 */
type ConnectCallback = (err: Error | null, client?: PgliteClient, release?: (err?: unknown) => void) => void;

type QueryInput = string | { text: string; values?: unknown[] };
type QueryCallback = (err: Error | null, result?: PgResult) => void;

interface PgResult {
  rows: unknown[];
  rowCount: number;
  command: string;
  fields: { name: string; dataTypeID: number }[];
}

let lastStatementAt = 0;

/**
 * When the embedded database last finished a statement. Its one session serves requests in
 * FIFO order, so under load a liveness ping waits behind them; finished statements show the
 * database is answering meanwhile.
 */
export function pgliteLastStatementAt(): number {
  return lastStatementAt;
}

export class PgliteClient extends EventEmitter {
  constructor(private readonly db: PGlite) {
    super();
  }

  /** pg's signatures: (text, values?) returning a promise, or with a trailing callback. */
  query(sql: QueryInput, params?: unknown[] | QueryCallback, callback?: QueryCallback): Promise<PgResult> | undefined {
    const cb = typeof params === 'function' ? params : callback;
    const values = typeof params === 'function' ? undefined : params;
    const result = this.run(sql, values);
    if (!cb) return result;
    result.then(
      (r) => cb(null, r),
      (err: unknown) => cb(err instanceof Error ? err : new Error(String(err))),
    );
    return undefined;
  }

  /**
   * PGlite runs each statement on this thread, and its queue starts the next one in a microtask:
   * under load the statements of every request ran back to back and the event loop (timers,
   * sockets, /health) waited for the whole queue. A turn of the loop after each statement bounds
   * a block to one statement.
   */
  private async run(sql: QueryInput, params?: unknown[]): Promise<PgResult> {
    try {
      return await this.execute(sql, params);
    } finally {
      lastStatementAt = Date.now();
      await nextTurn();
    }
  }

  private async execute(sql: QueryInput, params?: unknown[]): Promise<PgResult> {
    const text = typeof sql === 'string' ? sql : sql.text;
    const values = typeof sql === 'string' ? params : (sql.values ?? params);
    if (values && values.length > 0) {
      return toPgResult(await this.db.query(text, values), text);
    }
    // Without parameters, use the simple protocol so multi-statement SQL (migrations) works.
    const results = await this.db.exec(text);
    const last = results[results.length - 1];
    return last ? toPgResult(last, text) : { rows: [], rowCount: 0, command: commandOf(text), fields: [] };
  }

  close(): Promise<void> {
    return this.db.close();
  }
}

function toPgResult(
  r: { rows: unknown[]; affectedRows?: number; rowCount?: number; command?: string; fields: PgResult['fields'] },
  text: string,
): PgResult {
  const command = (r.command ?? commandOf(text)).toUpperCase();
  const rowCount = command === 'SELECT' ? r.rows.length : (r.rowCount ?? r.affectedRows ?? r.rows.length);
  return { rows: r.rows, rowCount, command, fields: r.fields };
}

function commandOf(sql: string): string {
  return (/^\s*(\w+)/.exec(sql)?.[1] ?? '').toUpperCase();
}

/**
 * The embedded engine's settings (rules: embedded-memory). PGlite's WebAssembly memory grows to
 * whatever the engine touches and never shrinks, so the buffers are small: shared_buffers 16 MB
 * (PostgreSQL's 128 MB default was about 130 MB of resident memory for good) and
 * maintenance_work_mem 16 MB (a VACUUM or index build would otherwise grow it by 64 MB). The one
 * session's data is mostly served from the operating system's page cache, as with a server.
 */
export const EMBEDDED_SETTINGS: readonly string[] = ['shared_buffers = 16MB', 'maintenance_work_mem = 16MB'];

/**
 * The embedded engine's WebAssembly stays on V8's baseline compiler, Liftoff (rules:
 * embedded-memory). By default V8 recompiles the engine's hot functions with its optimising
 * compiler on background threads, and what those compilations take stays resident in the
 * threads' malloc arenas: 40-90 MB for the engine's lifetime. Liftoff's code does the
 * database's work with about 1.5 times the CPU (BENCHMARKS.md, "The embedded engine on
 * Liftoff"). Set before the engine's module is compiled; the process has no other WebAssembly
 * of weight (undici's HTTP parser is the only other module).
 *
 * `--liftoff-only` alone is not enough at run time: V8 applies a flag's implications only to
 * start-up flags, and on Node 24's V8 (13.6) the tier-up reads the implied flags, not
 * `--liftoff-only` itself, so set alone it left the engine tiering up as before (Node 24: 955 MB
 * peak in embedded-memory.int-spec.ts instead of about 300). The two implied flags are set with
 * it; `test/integration/embedded-wasm-tier.int-spec.ts` checks that a hot function stays on
 * Liftoff.
 */
export const EMBEDDED_WASM_FLAGS = '--liftoff-only --no-wasm-tier-up --no-wasm-dynamic-tiering';

const execFileAsync = promisify(execFile);

/**
 * A new folder is initialised (initdb) in a short-lived child process: in this one, PGlite's
 * initdb runs a second engine instance whose memory (300-400 MB) stays resident until a full
 * collection that may never come. Opening the initialised folder then costs only the engine.
 */
async function initialiseFolder(dataDir: string): Promise<void> {
  if (fs.existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  fs.mkdirSync(dataDir, { recursive: true });
  const pglite = import.meta.resolve('@electric-sql/pglite');
  const script = `const { PGlite } = await import(${JSON.stringify(pglite)}); const db = await PGlite.create(process.argv[1], { postgresqlconf: JSON.parse(process.argv[2]) }); await db.close();`;
  try {
    await execFileAsync(process.execPath, ['--input-type=module', '-e', script, dataDir, JSON.stringify(EMBEDDED_SETTINGS)], { timeout: 120_000 });
  } catch (err) {
    // Not the command line (it holds the script): the child's last words, or how it ended.
    const { stderr, signal } = err as { stderr?: string | Buffer; signal?: string };
    const lastWords = (stderr ?? '').toString().trim().split('\n').at(-1);
    throw new Error(`the embedded database could not be initialised: ${lastWords || signal || 'initdb failed'}`, { cause: err });
  }
}

export class PglitePool extends EventEmitter {
  private readonly waiting: ConnectCallback[] = [];
  private busy = false;
  private ended = false;
  private readonly client: Promise<PgliteClient>;

  constructor(private readonly dataDir: string) {
    super();
    this.client = this.open();
  }

  private async open(): Promise<PgliteClient> {
    setFlagsFromString(EMBEDDED_WASM_FLAGS);
    const options = { postgresqlconf: [...EMBEDDED_SETTINGS] };
    if (this.dataDir === ':memory:') return new PgliteClient(await PGlite.create(undefined, options));
    await initialiseFolder(this.dataDir);
    const db = await PGlite.create(this.dataDir, options);
    return new PgliteClient(db);
  }

  /** Lends the session to `callback`; it stays lent until `release` is called. */
  connect(callback: ConnectCallback): void {
    if (this.ended) {
      callback(new Error('Pool is closed'));
      return;
    }
    this.waiting.push(callback);
    this.lendNext();
  }

  private lendNext(): void {
    if (this.busy) return;
    const next = this.waiting.shift();
    if (!next) return;
    this.busy = true;
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      this.busy = false;
      this.lendNext();
    };
    this.client.then(
      (client) => next(null, client, release),
      (err: unknown) => {
        release();
        next(err instanceof Error ? err : new Error(String(err)));
      },
    );
  }

  async end(callback?: (err?: Error) => void): Promise<void> {
    this.ended = true;
    try {
      const client = await this.client;
      await client.close();
      callback?.();
    } catch (err) {
      callback?.(err instanceof Error ? err : new Error(String(err)));
    }
  }

  get totalCount(): number {
    return 1;
  }

  get idleCount(): number {
    return this.busy ? 0 : 1;
  }

  get waitingCount(): number {
    return this.waiting.length;
  }
}

/** The object passed as TypeORM's `driver` option; each TypeORM pool opens its own PGlite. */
export function createPgliteDriver(dataDir: string): { Pool: new () => PglitePool } {
  return {
    Pool: class extends PglitePool {
      constructor() {
        super(dataDir);
      }
    },
  };
}
