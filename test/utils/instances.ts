import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createPostgresTestDatabase, LOCAL_POSTGRES } from './test-database.js';
import { until } from './wait.js';

/** A free TCP port on 127.0.0.1 (asked from the kernel, then released for the child to take). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** A database the multi-process tests share, on CI's server (PG_RUN_URL) or the local one. */
export async function createPgDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const db = await createPostgresTestDatabase(process.env.DATABASE_URL ?? process.env.PG_RUN_URL ?? LOCAL_POSTGRES);
  return { url: db.env.DATABASE_URL as string, drop: () => db.drop() };
}

/** One service process (src/main.ts through the repository's TypeScript loader), as an operator would run it. */
export interface ServiceProcess {
  readonly name: string;
  readonly baseUrl: string;
  readonly port: number;
  readonly output: string[];
  /** Started and not yet exited. */
  readonly running: boolean;
  start(): Promise<void>;
  /** SIGTERM (graceful) or SIGKILL (a crash); resolves when the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export function serviceProcess(name: string, port: number, env: Record<string, string>): ServiceProcess {
  let child: ChildProcess | null = null;
  const output: string[] = [];
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    name,
    baseUrl,
    port,
    output,
    get running() {
      return child !== null && child.exitCode === null;
    },
    async start() {
      child = spawn(process.execPath, ['--import', './scripts/ts-loader/register.mjs', 'src/main.ts'], {
        env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', LOG_FORMAT: 'json', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const keep = (chunk: Buffer) => {
        output.push(chunk.toString('utf8'));
        if (output.length > 200) output.shift();
      };
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
      await waitFor(async () => (await fetch(`${baseUrl}/health`).catch(() => null))?.status === 200, 60_000, `${name} did not start: ${output.join('')}`);
    },
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      const c = child;
      child = null;
      if (!c || c.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        c.once('exit', () => resolve());
        c.kill(signal);
      });
    },
  };
}

/** nginx from the Debian package in front of `upstreams`, round-robin, configured as deploy/nginx.conf is for SSE. */
export async function startNginx(upstreams: readonly number[]): Promise<{ url: string; stop(): void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'am-nginx-'));
  const port = await freePort();
  const servers = upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join('\n');
  fs.writeFileSync(path.join(dir, 'nginx.conf'), `
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
worker_processes 1;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream api {
${servers}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://api;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_buffering off;
      proxy_cache off;
      proxy_read_timeout 1h;
      proxy_next_upstream error timeout;
    }
  }
}
`);
  const bin = fs.existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
  const check = spawnSync(bin, ['-t', '-p', dir, '-c', path.join(dir, 'nginx.conf')], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t failed: ${check.stderr}`);
  const child = spawn(bin, ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${url}/health`).catch(() => null)) !== null, 10_000, 'nginx did not start');
  return {
    url,
    stop: () => {
      child.kill('SIGQUIT');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs: number, message: string): Promise<void> {
  await until(check, Boolean, timeoutMs).catch(() => {
    throw new Error(message);
  });
}
