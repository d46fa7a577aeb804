import 'reflect-metadata';
import { createApp } from './app.factory.js';
import { InvalidEnvironmentError, loadConfig } from './config/validate-env.js';

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const app = await createApp(config);
  await app.listen(config.port, config.host);
}

bootstrap().catch((err: unknown) => {
  const message = err instanceof InvalidEnvironmentError ? err.message : `Failed to start: ${String(err)}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
