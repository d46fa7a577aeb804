#!/usr/bin/env node
// The e2e suite on PostgreSQL (npm run test:pg, under scripts/with-postgres.mjs): every e2e and
// integration file that `npm test` runs on the embedded database, but for the files listed here,
// which `npm test` runs once. The cost-bounds test runs last, alone, as in `npm test`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** They choose their database themselves (or use none: the memory probes), or drive Chromium, whatever DATABASE_URL says. */
const ownEngine = [
  'test/e2e/swagger-ui.e2e-spec.ts',
  'test/e2e/dashboard.e2e-spec.ts',
  'test/e2e/dashboard-prices.e2e-spec.ts',
  'test/e2e/dashboard-auth.e2e-spec.ts',
  'test/e2e/dashboard-opportunities.e2e-spec.ts',
  'test/e2e/security-headers-lan.e2e-spec.ts',
  'test/e2e/alerts-targets-dns.e2e-spec.ts',
  'test/faults/embedded-folder.e2e-spec.ts',
  'test/faults/postgres.e2e-spec.ts',
  'test/e2e/health-busy-pool.e2e-spec.ts',
  'test/integration/postgres-pool.int-spec.ts',
  'test/integration/ensure-database.int-spec.ts',
  'test/integration/startup-log.int-spec.ts',
  'test/integration/startup-failures.int-spec.ts',
  'test/e2e/exposure.e2e-spec.ts',
  'test/e2e/simulator-host.e2e-spec.ts',
  'test/e2e/demo-preflight.e2e-spec.ts',
  'test/integration/embedded-memory.int-spec.ts',
  'test/integration/heap-growth.int-spec.ts',
  'test/integration/young-generation.int-spec.ts',
];

/**
 * Slow checks of the feeds, books, depth and streams, and the venue-list checks of the parameters.
 * What they check never goes through the database (the few rows they store, alert rules say, other
 * files check on PostgreSQL), so a second pass would run the same code again: about 9 minutes of CI.
 */
const databaseBlind = [
  'test/e2e/market-books.e2e-spec.ts',
  'test/e2e/depth.e2e-spec.ts',
  'test/e2e/alerts-size.e2e-spec.ts',
  'test/e2e/market-reconnect-memory.e2e-spec.ts',
  'test/e2e/market-halts.e2e-spec.ts',
  'test/e2e/market-dead-path.e2e-spec.ts',
  'test/e2e/realtime-stalled-client.e2e-spec.ts',
  'test/e2e/realtime-slow-reader.e2e-spec.ts',
  'test/e2e/configured-exchanges.e2e-spec.ts',
];

/**
 * The contract tests drive the real ccxt clients against the simulator and open no database at all;
 * each venue's own contract and fault tests, in its simulator folder, check its feeds and protocol.
 * Both folders run once, in `npm test`.
 */
const noDatabase = ['test/contract', 'src/simulator/venues'];

const alone = 'test/e2e/cost-bounds.e2e-spec.ts';
const listed = [...ownEngine, ...databaseBlind, alone];

// A renamed file would otherwise run twice unnoticed, or a misspelt one never be excluded.
const missing = [...listed, ...noDatabase].filter((file) => !existsSync(file));
if (missing.length > 0) {
  console.error(`scripts/test-pg.mjs lists files that do not exist: ${missing.join(', ')}`);
  process.exit(1);
}

const vitest = (args) => spawnSync('node_modules/.bin/vitest', ['run', '--project', 'e2e', ...args], { stdio: 'inherit' });
const excluded = [...listed, ...noDatabase.map((folder) => `${folder}/**`)].flatMap((file) => ['--exclude', file]);
for (const args of [excluded, [alone]]) {
  const run = vitest(args);
  if (run.status !== 0) process.exit(run.status ?? 1);
}
