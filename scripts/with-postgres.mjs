#!/usr/bin/env node
// Runs a command with DATABASE_URL pointing at a PostgreSQL server (default: the local one),
// after checking that it answers. Each e2e test file then creates and drops its own database.
import { spawn } from 'node:child_process';
import pg from 'pg';

const url = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
try {
  await client.connect();
  await client.query('SELECT 1');
} catch (err) {
  console.error(`PostgreSQL does not answer at ${url.replace(/:[^:@/]+@/, ':***@')}: ${err.message}`);
  process.exit(1);
} finally {
  await client.end().catch(() => {});
}
const [cmd, ...args] = process.argv.slice(2);
const child = spawn(cmd, args, { stdio: 'inherit', env: { ...process.env, DATABASE_URL: url }, shell: false });
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
