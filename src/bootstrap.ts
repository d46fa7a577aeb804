import { createApp } from './app.factory.js';
import { InvalidEnvironmentError, loadConfig } from './config/validate-env.js';

/**
 * Validates the environment, builds the app and listens. Resolves 0 once listening, or 1 after
 * writing why it could not start (a bad variable is named with its rule).
 */
export async function startService(
  env: Record<string, string | undefined> = {},
  writeError: (line: string) => void = (line) => process.stderr.write(line),
): Promise<0 | 1> {
  try {
    const config = loadConfig(env);
    const app = await createApp(config);
    await app.listen(config.port, config.host);
    return 0;
  } catch (err) {
    const message = err instanceof InvalidEnvironmentError ? err.message : `Failed to start: ${String(err)}`;
    writeError(`${message}\n`);
    return 1;
  }
}
