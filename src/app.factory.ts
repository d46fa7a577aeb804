import type { Server } from 'node:http';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import express from 'express';
import { DataSource } from 'typeorm';
import { AppModule } from './app.module.js';
import { describeSource, loadKeyring, type LoadedKeyring } from './common/secrets/key-source.js';
import { assertKeyringOpensStored } from './database/sealed-secrets.js';
import type { AppConfig } from './config/app-config.js';
import { buildOpenApiDocument } from './common/openapi/openapi-document.js';
import { JsonLogger } from './common/logging/json-logger.js';
import { accessLogMiddleware } from './common/http/access-log.middleware.js';
import { requestIdMiddleware } from './common/http/request-id.middleware.js';
import { securityHeaders } from './common/http/security-headers.js';
import { httpMetricsMiddleware } from './metrics/http-metrics.middleware.js';
import { MetricsService } from './common/metrics/metrics.service.js';
import { HISTORY_IMPORT_PATH, historyImportBodyParsers } from './opportunity-history/import-body-parser.js';
import { CROSSING_COUNTS_PATH, crossingCountsBodyParser } from './crossing-counts/crossing-counts-body-parser.js';
import { dashboardStatic } from './dashboard/dashboard-static.js';

/**
 * Builds the whole HTTP application exactly as production runs it; main.ts listens on it and
 * the e2e tests drive it, so both exercise the same middleware, pipes and filters.
 */
export async function createApp(config: AppConfig): Promise<NestExpressApplication> {
  const logger = new JsonLogger(config.logLevel, undefined, config.logFormat);
  const secrets = loadKeyring(config.secrets);
  logSecretsKey(logger, secrets);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, secrets.keyring), {
    bodyParser: false,
    logger,
  });
  // Before any module starts (nothing has read, written or sent yet): another key stops here.
  try {
    await assertKeyringOpensStored(app.get(DataSource), secrets.keyring, describeSource(secrets.source));
  } catch (err) {
    await app.close();
    throw err;
  }
  app.set('trust proxy', config.trustProxy);
  limitSlowClients(app.getHttpServer(), config.headersTimeoutMs);
  app.use(requestIdMiddleware);
  app.use(accessLogMiddleware);
  app.use(httpMetricsMiddleware(app.get(MetricsService)));
  app.use(securityHeaders());
  app.enableCors({
    origin: config.corsOrigins === '*' ? '*' : config.corsOrigins,
    exposedHeaders: ['X-Request-Id', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'],
  });
  // The built dashboard at `/`, under the same headers as the API; absent when web/ is not built.
  const dashboard = dashboardStatic();
  if (dashboard) app.use(dashboard);
  // The history import takes up to 64 MiB (rules: history-import); mounted first, it reads its own body.
  app.use(HISTORY_IMPORT_PATH, ...historyImportBodyParsers());
  // The `crossing-counts` rule / the `errors` rule: an unparsable crossing-count body is a 500 there, not the global 400.
  app.use(CROSSING_COUNTS_PATH, crossingCountsBodyParser(config.bodyLimitBytes));
  app.use(express.json({ limit: config.bodyLimitBytes }));
  setupSwagger(app);
  return app;
}

/**
 * Slowloris: a client that sends its request head a byte at a time held a connection
 * for Node's default 60 s, and nothing bounds how many such connections one client opens. The
 * head must now be complete within HTTP_HEADERS_TIMEOUT_MS (a bare 408, then close: no request
 * exists yet to answer in the `errors` rule shape). Node checks open connections every 30 s by default; a
 * quarter of the timeout keeps the bound near what the variable says.
 */
function limitSlowClients(server: Server, headersTimeoutMs: number): void {
  server.headersTimeout = headersTimeoutMs;
  // A constructor option Nest does not pass through; Node reads it when the server starts listening.
  Object.assign(server, { connectionsCheckingInterval: Math.max(100, Math.floor(headersTimeoutMs / 4)) });
}

/** Names where the key came from and its id, never the key (rules: sealed-secrets). */
function logSecretsKey(logger: JsonLogger, { keyring, source }: LoadedKeyring): void {
  const where = source.kind === 'file' ? { keyFile: source.path, created: source.created } : {};
  logger.log({ msg: 'secrets key', source: source.kind, keyId: keyring.currentId, ...where, previousKeys: keyring.keyIds.length - 1 }, 'Secrets');
}

function setupSwagger(app: NestExpressApplication): void {
  SwaggerModule.setup('docs', app, buildOpenApiDocument(app), { jsonDocumentUrl: 'docs-json' });
}
