import { spawn } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * `npm run demo` checks its two ports before it builds anything (rules: operating): a second demo
 * is refused in one line that says one runs already and which variables move it, and dist/ of the
 * running one is left alone; another program on a port is named as such.
 */
const servers: (net.Server | http.Server)[] = [];

async function listen<T extends net.Server | http.Server>(server: T): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

function run(command: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const preflight = (env: Record<string, string>) => run(process.execPath, ['scripts/demo-preflight.mjs'], env);

/** A stand-in for a running demo's service: /health answers as the service does. */
const fakeService = (): http.Server => http.createServer((req, res) => {
  res.writeHead(req.url === '/health' ? 200 : 404, { 'content-type': 'application/json' });
  res.end(req.url === '/health' ? '{"status":"ok"}' : '{}');
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

describe('npm run demo: the ports, checked before anything is built', () => {
  it('both free: goes on, saying nothing', async () => {
    expect(await preflight({ PORT: String(await freePort()), SIM_PORT: String(await freePort()) })).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('a demo running: one line saying so and which variables move the ports', async () => {
    const port = await listen(fakeService());
    const result = await preflight({ PORT: String(port), SIM_PORT: String(await freePort()) });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`demo: a demo is already running on 127.0.0.1:${port} (PORT): stop it (Ctrl-C in its terminal), or set PORT and SIM_PORT to free ports to run a second one\n`);
  });

  it('another program on a port: named as such', async () => {
    const sim = await listen(net.createServer((socket) => socket.destroy()));
    const result = await preflight({ PORT: String(await freePort()), SIM_PORT: String(sim) });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`demo: 127.0.0.1:${sim} (SIM_PORT) is taken by another program: set PORT and SIM_PORT to free ports\n`);
  });

  it('npm run demo stops before its build: dist/ of the running demo is not touched', async () => {
    const port = await listen(fakeService());
    const marker = path.join('dist', '.running-demo');
    mkdirSync('dist', { recursive: true });
    writeFileSync(marker, 'x');
    const before = statSync(marker).mtimeMs;
    const result = await run('npm', ['run', '--silent', 'demo'], { PORT: String(port), SIM_PORT: String(await freePort()) });
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining('demo: a demo is already running')]);
    expect(statSync(marker).mtimeMs).toBe(before);
  }, 60_000);
});
