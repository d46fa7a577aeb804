import type { Server } from 'node:http';
import type { LoggerService } from '@nestjs/common';
import { errorFields } from '../logging/json-logger.js';

/** What the shutdown needs of the app: its HTTP server and Nest's close (hooks, then the database). */
export interface ClosableApp {
  getHttpServer(): Server;
  close(): Promise<void>;
}

export interface ShutdownOptions {
  deadlineMs: number;
  logger: LoggerService;
  /** process.exit in production; a spy in unit tests. */
  exit: (code: number) => void;
  signals?: NodeJS.Signals[];
  on?: (signal: NodeJS.Signals, handler: () => void) => void;
}

/**
 * SIGTERM/SIGINT: stop accepting connections at once (so a proxy moves new clients elsewhere),
 * then let Nest end the streams, wait for in-flight requests and jobs, and close the database.
 * If that takes longer than the deadline the process exits anyway with code 1: every write is one
 * transaction, so what did not commit leaves nothing behind. A second signal changes nothing.
 */
export function exitGracefullyOnSignals(app: ClosableApp, options: ShutdownOptions): void {
  const { deadlineMs, logger, exit } = options;
  const on = options.on ?? ((signal, handler) => process.once(signal, handler));
  let closing = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (closing) return;
    closing = true;
    logger.log({ msg: 'shutting down', signal, deadlineMs });
    const deadline = setTimeout(() => {
      logger.error({ msg: 'shutdown deadline passed; exiting with work unfinished', deadlineMs });
      exit(1);
    }, deadlineMs);
    deadline.unref();
    const server = app.getHttpServer();
    server.close();
    // close() ends the connections idle at that moment; a keep-alive connection whose request
    // finishes later would otherwise hold the server open for its whole keep-alive timeout.
    server.closeIdleConnections();
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    sweep.unref();
    app.close().then(
      () => {
        clearTimeout(deadline);
        clearInterval(sweep);
        logger.log({ msg: 'shut down' });
        exit(0);
      },
      (err: unknown) => {
        clearTimeout(deadline);
        clearInterval(sweep);
        logger.error({ msg: 'shutdown failed', error: errorFields(err) });
        exit(1);
      },
    );
  };
  for (const signal of options.signals ?? ['SIGTERM', 'SIGINT']) on(signal, () => shutdown(signal));
}
