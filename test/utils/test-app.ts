import type { AddressInfo } from 'node:net';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createApp } from '../../src/app.factory.js';
import type { AppConfig } from '../../src/config/app-config.js';
import { loadConfig } from '../../src/config/validate-env.js';
import { createTestDatabase } from './test-database.js';

export interface TestApp {
  app: NestExpressApplication;
  /** `http://127.0.0.1:<port>`: the app listens for real, so SSE clients can connect. */
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * Boots the whole application as production does, on a fresh database, on a free port.
 * `configure` may replace what no variable can give (the alert targets' resolver).
 */
export async function startTestApp(
  env: Record<string, string | undefined> = {},
  configure: (config: AppConfig) => AppConfig = (config) => config,
): Promise<TestApp> {
  const db = await createTestDatabase();
  const config = configure(loadConfig({ LOG_LEVEL: 'silent', PORT: '3000', ...db.env, ...env }));
  const app = await createApp(config);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return {
    app,
    baseUrl: `http://127.0.0.1:${port}`,
    close: async () => {
      await app.close();
      await db.drop();
    },
  };
}
