import type { Server } from 'node:http';
import net from 'node:net';
import { createApp } from './app.factory.js';
import { exitGracefullyOnSignals } from './common/lifecycle/graceful-shutdown.js';
import { JsonLogger } from './common/logging/json-logger.js';
import { assertUsableFolder, EmbeddedFolderError } from './database/embedded-folder.js';
import { DatabaseUnreachableError, ensurePostgresDatabase, MissingDatabaseError } from './database/ensure-database.js';
import { SecretsKeyMismatchError } from './database/sealed-secrets.js';
import { SecretsKeyFileError } from './common/secrets/key-source.js';
import { assertSafeExposure } from './config/exposure.js';
import { startupNotices } from './config/startup-notices.js';
import { InvalidEnvironmentError, loadConfig } from './config/validate-env.js';

/**
 * Validates the environment, builds the app and listens. Resolves 0 once listening, or 1 after
 * writing why it could not start (a bad variable is named with its rule). From then on SIGTERM and
 * SIGINT shut it down within SHUTDOWN_TIMEOUT_MS.
 */
export async function startService(
  env: Record<string, string | undefined> = {},
  writeError: (line: string) => void = (line) => process.stderr.write(line),
): Promise<0 | 1> {
  try {
    const config = loadConfig(env);
    assertSafeExposure(config);
    await assertPortFree(config.host, config.port);
    const logger = new JsonLogger(config.logLevel, undefined, config.logFormat);
    if (config.database.kind === 'pglite') assertUsableFolder(config.database.path);
    else {
      const created = await ensurePostgresDatabase(config.database.url, config.database.connectWaitMs);
      if (created !== null) logger.log({ msg: 'created the database DATABASE_URL names', database: created }, 'Database');
    }
    for (const notice of startupNotices(config)) logger.warn({ msg: notice }, 'Config');
    const app = await createApp(config);
    await app.listen(config.port, config.host).catch(async (error: unknown) => {
      await app.close().catch(() => undefined);
      throw (error as { code?: string }).code === 'EADDRINUSE' ? new PortInUseError(config.host, config.port) : error;
    });
    logger.log({ msg: 'listening', ...listeningAddress(app.getHttpServer()) }, 'Bootstrap');
    exitGracefullyOnSignals(app, { deadlineMs: config.shutdownTimeoutMs, logger, exit: (code) => process.exit(code) });
    return 0;
  } catch (err) {
    const known =
      err instanceof InvalidEnvironmentError ||
      err instanceof EmbeddedFolderError ||
      err instanceof MissingDatabaseError ||
      err instanceof DatabaseUnreachableError ||
      err instanceof PortInUseError ||
      err instanceof SecretsKeyMismatchError ||
      err instanceof SecretsKeyFileError;
    const message = known ? err.message : `Failed to start: ${String(err)}`;
    writeError(`${message}\n`);
    return 1;
  }
}

/**
 * Binds the address once and lets it go, before the database opens or the app is built: a port in
 * use is then one line (rules: operating), not Nest's error log and a stack. A port taken between
 * this check and the listen still fails the start, with the same line.
 */
async function assertPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'EADDRINUSE' ? new PortInUseError(host, port) : error));
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

/** Another process listens on the address the service was to listen on. */
class PortInUseError extends Error {
  constructor(host: string, port: number) {
    super(`Port ${port} on ${host} is already in use (another service, or a demo already running?): stop it, or set PORT to a free port`);
    this.name = 'PortInUseError';
  }
}

/** What the kernel bound, not what HOST asked for: `localhost` or a name resolves to one address. */
function listeningAddress(server: Server): { address: string; port: number } | { address: string } {
  const bound = server.address();
  return bound !== null && typeof bound === 'object' ? { address: bound.address, port: bound.port } : { address: String(bound) };
}
