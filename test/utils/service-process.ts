import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { until } from './wait.js';

/** The service as production runs it: its own process, `src/main.ts` through the TypeScript loader. */
export interface ServiceProcess {
  readonly baseUrl: string;
  readonly child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (null after a signal) and how long after `signal()` it came. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  signal(signal: NodeJS.Signals): void;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Where a service process runs and is reached, when not on this machine's loopback. */
export interface ServicePlace {
  /** A command the service is started through, which execs it (`ip netns exec <name>`). */
  via?: readonly string[];
  /** The IPv4 address the test reaches it on (127.0.0.1); HOST in its env must let it listen there. */
  address?: string;
}

/** Spawns `src/main.ts` with `env` on `port`, collecting everything it writes. */
function spawnService(env: Record<string, string>, port: number, via: readonly string[] = []): { child: ChildProcess; output: () => string } {
  const [command, ...args] = [...via, process.execPath, '--import', './scripts/ts-loader/register.mjs', 'src/main.ts'];
  const child = spawn(command, args, {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), LOG_FORMAT: 'json', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

/** Starts the service with `env` on a free port; resolves once GET /health answers 200. */
export async function startServiceProcess(env: Record<string, string>, readyTimeoutMs = 60_000, place: ServicePlace = {}): Promise<ServiceProcess> {
  const port = await freePort();
  const { child, output } = spawnService(env, port, place.via);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const service: ServiceProcess = {
    baseUrl: `http://${place.address ?? '127.0.0.1'}:${port}`,
    child,
    output,
    exited,
    signal: (signal) => void child.kill(signal),
  };
  await waitHealthy(service, readyTimeoutMs);
  return service;
}

async function waitHealthy(service: ServiceProcess, timeoutMs: number): Promise<void> {
  let gone = false;
  void service.exited.then(() => (gone = true));
  const healthy = () => fetch(`${service.baseUrl}/health`).then((r) => r.status === 200, () => false);
  if (await until(async () => gone || (await healthy()), Boolean, timeoutMs).then(() => !gone, () => false)) return;
  service.signal('SIGKILL');
  throw new Error(`service did not become healthy:\n${service.output().slice(-3000)}`);
}

/** Starts the service expecting it to refuse: resolves with its exit code and output. */
export async function runServiceToExit(env: Record<string, string>, timeoutMs = 60_000): Promise<{ code: number | null; output: string }> {
  const { child, output } = spawnService(env, await freePort());
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, output: output() };
}
