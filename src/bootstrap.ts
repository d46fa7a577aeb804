import { createApp } from './app.factory.js';
import { exitGracefullyOnSignals } from './common/lifecycle/graceful-shutdown.js';
import { JsonLogger } from './common/logging/json-logger.js';
import { assertUsableFolder, EmbeddedFolderError } from './database/embedded-folder.js';
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
    if (config.database.kind === 'pglite') assertUsableFolder(config.database.path);
    const app = await createApp(config);
    await app.listen(config.port, config.host);
    exitGracefullyOnSignals(app, {
      deadlineMs: config.shutdownTimeoutMs,
      logger: new JsonLogger(config.logLevel, undefined, config.logFormat),
      exit: (code) => process.exit(code),
    });
    return 0;
  } catch (err) {
    const known = err instanceof InvalidEnvironmentError || err instanceof EmbeddedFolderError;
    const message = known ? err.message : `Failed to start: ${String(err)}`;
    writeError(`${message}\n`);
    return 1;
  }
}
