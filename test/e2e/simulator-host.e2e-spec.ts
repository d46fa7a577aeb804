import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../utils/service-process.js';

/**
 * The simulator's control API (`/_sim/`) has no authentication: run as its own program it listens
 * on loopback unless SIM_HOST says otherwise, and its start line names the address it listens on.
 * The bound address is read from the kernel's socket table (/proc/net/tcp, tcp6), not from the line.
 */
function listeners(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const rows = (file: string): string[][] =>
    readFileSync(file, 'utf8').split('\n').slice(1).map((l) => l.trim().split(/\s+/));
  const v4 = rows('/proc/net/tcp')
    .filter((r) => r[3] === '0A' && r[1]?.endsWith(`:${hexPort}`))
    .map((r) => (r[1]?.slice(0, 8).match(/../g) ?? []).reverse().map((b) => parseInt(b, 16)).join('.'));
  const v6 = rows('/proc/net/tcp6').filter((r) => r[3] === '0A' && r[1]?.endsWith(`:${hexPort}`)).map((r) => `v6:${r[1]?.slice(0, 32)}`);
  return [...v4, ...v6];
}

describe('the exchange simulator program listens on loopback by default', () => {
  let child: ChildProcess | undefined;
  afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
    }
    child = undefined;
  });

  it('SIM_HOST unset: bound to 127.0.0.1 only, and the start line says 127.0.0.1:<port>', async () => {
    const port = await freePort();
    child = spawn(process.execPath, ['--import', './scripts/ts-loader/register.mjs', 'src/simulator/main.ts'], {
      env: { PATH: process.env.PATH ?? '', SIM_PORT: String(port), SIM_SYMBOLS: 'BTC' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const started = child;
    const banner = await new Promise<string>((resolve, reject) => {
      started.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const line = output.split('\n').find((l) => l.includes('exchange simulator listening on'));
        if (line !== undefined) resolve(line);
      });
      started.once('exit', (code) => reject(new Error(`simulator exited (${code}) before listening:\n${output}`)));
    });
    expect(banner).toContain(`listening on 127.0.0.1:${port} `);
    expect(listeners(port)).toEqual(['127.0.0.1']);
  }, 60_000);

  it('a port in use: one line naming it and SIM_PORT, exit 1 (rules: operating)', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as net.AddressInfo;
    try {
      child = spawn(process.execPath, ['--import', './scripts/ts-loader/register.mjs', 'src/simulator/main.ts'], {
        env: { PATH: process.env.PATH ?? '', SIM_PORT: String(port), SIM_SYMBOLS: 'BTC' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = child;
      const code = await new Promise<number | null>((resolve) => exited.once('exit', resolve));
      expect(code).toBe(1);
      expect(output).toBe(`exchange simulator: port ${port} on 127.0.0.1 is already in use (a demo already running?): stop it, or set SIM_PORT to a free port\n`);
    } finally {
      holder.close();
    }
  }, 60_000);
});
