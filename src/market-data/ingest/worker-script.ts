import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface WorkerScript {
  filename: URL;
  execArgv: string[];
}

/**
 * The ingest worker's entry (`ingest-worker.main`: what runs inside the thread; the serving
 * thread's side of it is `ingest-worker.handle`). The built service runs `ingest-worker.main.js`
 * beside this file. Run from the TypeScript sources (tests, dev tools), only
 * `ingest-worker.main.ts` exists: the worker then compiles its modules as it loads them, through
 * the loader in scripts/ts-loader.
 */
export function ingestWorkerScript(): WorkerScript {
  const built = new URL('./ingest-worker.main.js', import.meta.url);
  if (existsSync(fileURLToPath(built))) return { filename: built, execArgv: [] };
  const loader = new URL('../../../scripts/ts-loader/register.mjs', import.meta.url);
  return { filename: new URL('./ingest-worker.main.ts', import.meta.url), execArgv: ['--import', loader.href] };
}
