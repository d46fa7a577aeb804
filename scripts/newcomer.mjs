#!/usr/bin/env node
// The first hour, scripted: what a newcomer does with the README alone, checked.
//   1. a fresh clone of this repository's HEAD in a temporary folder;
//   2. `npm ci && npm run demo` there (free ports through PORT and SIM_PORT, so it can run beside
//      another service; everything else as the README says);
//   3. the banner must arrive, the opportunity stream it prints with `transferable=true` must
//      carry an event with `transferable: true` and a positive `netProfitPercent` within
//      2 minutes, and every other command the banner prints must answer 2xx;
//   4. Ctrl-C (SIGINT) must stop the demo.
// Exits 0 when all hold, 1 naming what did not. NEWCOMER_KEEP=1 keeps the folder.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BANNER_TIMEOUT_MS = 5 * 60_000;
const EVENT_TIMEOUT_MS = 2 * 60_000;
const COMMAND_TIMEOUT_S = 5;

const log = (line) => process.stdout.write(`newcomer: ${line}\n`);

function fail(message) {
  log(`FAILED: ${message}`);
  process.exitCode = 1;
  throw new Error(message);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function waitForText(child, text, timeoutMs) {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no "${text}" within ${timeoutMs / 1000} s; last output: ${seen.slice(-2000)}`)), timeoutMs);
    child.stdout.on('data', (chunk) => {
      seen += chunk.toString();
      if (seen.includes(text)) {
        clearTimeout(timer);
        resolve(seen);
      }
    });
    child.once('exit', (code) => reject(new Error(`demo exited (${code}) before "${text}"; output: ${seen.slice(-2000)}`)));
  });
}

/** The shell commands the banner prints, each a line beginning with `curl`. */
function printedCommands(banner) {
  return banner.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('curl ')).map((l) => l.replace(/\s{2,}\S.*$/, ''));
}

/** Reads the stream the command names until an event passes `ok`, as a newcomer's curl would show it. */
async function firstEvent(url, ok, timeoutMs) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const res = await fetch(url, { signal: controller.signal, headers: { accept: 'text/event-stream' } });
    if (res.status !== 200) fail(`${url} answered ${res.status}`);
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of res.body) {
      buffer += decoder.decode(chunk, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = frame.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n');
        if (!data) continue;
        const event = JSON.parse(data);
        if (ok(event)) return event;
      }
    }
    return fail(`${url} ended without such an event`);
  } catch (error) {
    if (controller.signal.aborted) return fail(`no event on ${url} within ${timeoutMs / 1000} s`);
    throw error;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

/** Runs a printed command as a shell would, and answers its HTTP status. */
function statusOf(command) {
  const out = execFileSync('bash', ['-c', `${command} -s -o /dev/null -w '%{http_code}' --max-time ${COMMAND_TIMEOUT_S} || true`], { encoding: 'utf8' });
  return Number(out.trim().slice(-3));
}

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'newcomer-'));
  let demo;
  try {
    log(`fresh clone of ${repo} in ${dir}`);
    execFileSync('git', ['clone', '--quiet', repo, dir], { stdio: 'inherit' });
    log('npm ci');
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
    const [port, simPort] = [await freePort(), await freePort()];
    log(`npm run demo (PORT=${port}, SIM_PORT=${simPort})`);
    demo = spawn('npm', ['run', 'demo'], { cwd: dir, env: { ...process.env, PORT: String(port), SIM_PORT: String(simPort) }, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
    const banner = await waitForText(demo, 'Ctrl-C stops both.', BANNER_TIMEOUT_MS).catch((e) => fail(e.message));
    const commands = printedCommands(banner);
    if (commands.length < 5) fail(`the banner printed ${commands.length} commands`);

    const tradeable = commands.find((c) => c.includes('transferable=true'));
    if (!tradeable) fail('the banner prints no stream of transferable routes');
    const url = /'([^']+)'/.exec(tradeable)?.[1] ?? fail(`no URL in ${tradeable}`);
    const started = Date.now();
    const event = await firstEvent(url, (e) => e.transferable === true && Number(e.netProfitPercent) > 0, EVENT_TIMEOUT_MS);
    log(`after ${((Date.now() - started) / 1000).toFixed(1)} s: ${event.ticker} buy ${event.buyExchange} sell ${event.sellExchange}, net ${event.netProfitPercent} %, network ${JSON.stringify(event.network)}`);

    for (const command of commands) {
      const status = statusOf(command);
      log(`${status} ${command}`);
      if (status < 200 || status > 299) fail(`${command} answered ${status}`);
    }
    log('Ctrl-C');
    process.kill(-demo.pid, 'SIGINT');
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the demo did not stop within 20 s of Ctrl-C')), 20_000);
      demo.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
    }).catch((e) => fail(e.message));
    demo = undefined;
    log('ok');
  } finally {
    if (demo && demo.exitCode === null) process.kill(-demo.pid, 'SIGKILL');
    if (process.env.NEWCOMER_KEEP !== '1') rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  if (process.exitCode !== 1) log(`FAILED: ${error.message}`);
  process.exit(1);
});
