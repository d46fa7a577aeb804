import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DemoEnv, loadDemoEnv } from './config/demo-env.js';
import { demoBanner } from './demo-banner.js';
import { SERVICE_NODE_FLAGS } from './common/memory/heap-growth.js';

/**
 * `npm run demo`: the exchange simulator (random walk on) and the service, together, offline,
 * on the embedded database. The service starts once the simulator listens, so its first market
 * load succeeds; SIGINT/SIGTERM are forwarded to both; if either dies the other is stopped.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const children: ChildProcess[] = [];
let stopping = false;

function start(script: string, env: Record<string, string | undefined>, onLine?: (line: string) => void, flags: readonly string[] = []): ChildProcess {
  const child = spawn(process.execPath, [...flags, path.join(here, script)], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout?.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    onLine?.(chunk.toString());
  });
  child.once('exit', (code, signal) => {
    if (!stopping) {
      process.stderr.write(`demo: ${script} exited (${signal ?? code}); stopping\n`);
      stop(typeof code === 'number' && code !== 0 ? code : 1);
    }
  });
  children.push(child);
  return child;
}

function stop(code: number, signal: NodeJS.Signals = 'SIGTERM'): void {
  stopping = true;
  const alive = children.filter((c) => c.exitCode === null && c.signalCode === null);
  if (alive.length === 0) process.exit(code);
  let left = alive.length;
  for (const child of alive) {
    child.once('exit', () => --left === 0 && process.exit(code));
    child.kill(signal);
  }
}

/** Prints the addresses and the simulator's controls once /health answers, so they end the start-up. */
async function announceWhenUp(env: DemoEnv): Promise<void> {
  while (!stopping) {
    const up = await fetch(`${env.serviceUrl}/health`).then((res) => res.ok, () => false);
    if (up) {
      process.stdout.write(demoBanner({ servicePort: env.servicePort, simulatorPort: env.simulatorPort }));
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function main(): void {
  const env = loadDemoEnv();
  for (const line of env.notices) process.stdout.write(`${line}\n`);
  let serviceStarted = false;
  start('simulator/main.js', env.simulatorEnv, (text) => {
    if (serviceStarted || !text.includes('listening')) return;
    serviceStarted = true;
    start('main.js', env.serviceEnv, undefined, SERVICE_NODE_FLAGS);
    process.stdout.write(`demo: simulator on :${env.simulatorPort}; service starting.\n`);
    void announceWhenUp(env);
  });
  process.once('SIGINT', () => stop(0, 'SIGINT'));
  process.once('SIGTERM', () => stop(0, 'SIGTERM'));
}

main();
