#!/usr/bin/env node
// The first hour, scripted: what a newcomer does with the README alone, checked.
//   1. a fresh clone of this repository's HEAD in a temporary folder;
//   2. `npm ci && npm run demo` there (free ports through PORT and SIM_PORT, so it can run beside
//      another service; everything else as the README says);
//   3. the banner must arrive, the opportunity stream it prints with `transferable=true` must
//      carry an event with `transferable: true` and a positive `netProfitPercent` within
//      2 minutes, and every other command the banner prints must answer 2xx;
//   4. a second `npm run demo` while the first runs must stop in one line saying one runs already;
//   5. Ctrl-C (SIGINT) must stop the demo;
//   6. `npm start` without ENABLED_WEBSOCKET must say in one line that no venue is watched;
//   7. the README's live command (`ENABLED_WEBSOCKET=1 npm start`), with EXCHANGE_URLS pointing
//      every endpoint the service uses at the simulator, must show quotes on the price stream.
// Exits 0 when all hold, 1 naming what did not. NEWCOMER_KEEP=1 keeps the folder.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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

/** Runs a command to its end; answers its exit code and what it wrote to stderr. */
function runToExit(command, args, options, timeoutMs) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not stop within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

/** Starts a long-running command in its own process group; stop it with stopGroup. */
function startGroup(command, args, options) {
  return spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
}

async function stopGroup(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  const timer = setTimeout(() => process.kill(-child.pid, 'SIGKILL'), 20_000);
  await gone;
  clearTimeout(timer);
}

/** Waits until `text` appears on the child's stdout or stderr; answers what was seen. */
function waitForOutput(child, text, timeoutMs) {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no "${text}" within ${timeoutMs / 1000} s; last output: ${seen.slice(-2000)}`)), timeoutMs);
    const read = (chunk) => {
      seen += chunk.toString();
      if (seen.includes(text)) {
        clearTimeout(timer);
        resolve(seen);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => reject(new Error(`exited (${code}) before "${text}"; output: ${seen.slice(-2000)}`)));
  });
}

/**
 * EXCHANGE_URLS that sends every ccxt endpoint of the default venues to the simulator, as a venue
 * that moved would be reached: each leaf of ccxt's `urls.api` becomes
 * `http(s)→http, wss→ws://127.0.0.1:<simPort>/<original host>/<path>` (the simulator serves a venue
 * by the original host in the path). Read from the clone's own build: its registry and ccxt clients.
 */
async function simulatorUrls(dir, simPort) {
  const load = (file) => import(pathToFileURL(path.join(dir, 'dist', file)).href);
  const { VENUES } = await load('venues/registry.js');
  const { createExchangeClient, rewriteApiUrls } = await load('market-data/ccxt/exchange-clients.js');
  const entries = [];
  const walk = (node, key, venue) => {
    if (typeof node === 'string') entries.push(`${venue}.${key}=${node}`);
    else if (node && typeof node === 'object' && !Array.isArray(node)) for (const [k, v] of Object.entries(node)) walk(v, key === '' ? k : `${key}.${k}`, venue);
  };
  for (const venue of VENUES.filter((v) => v.watchedByDefault)) {
    const client = createExchangeClient(venue.name);
    const leaves = new Set(Object.keys(venue.endpoints.leaves));
    const before = entries.length;
    walk(rewriteApiUrls(client.urls.api, client.hostname, `http://127.0.0.1:${simPort}`), '', venue.name);
    // Only the leaves EXCHANGE_URLS accepts (the venue folder lists them).
    entries.splice(before, entries.length - before, ...entries.slice(before).filter((e) => leaves.has(e.slice(venue.name.length + 1, e.indexOf('=')))));
  }
  return entries.join(',');
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
    log('a second npm run demo while this one runs');
    const second = await runToExit('npm', ['run', '--silent', 'demo'], { cwd: dir, env: { ...process.env, PORT: String(port), SIM_PORT: String(simPort) } }, 60_000);
    const refusal = second.stderr.trim().split('\n');
    log(`exit ${second.code}: ${refusal.join(' | ')}`);
    if (second.code === 0 || refusal.length !== 1 || !refusal[0].includes('a demo is already running')) fail('a second demo was not refused in one line');

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

    log('npm start without ENABLED_WEBSOCKET');
    const feedsOff = { ...process.env, PORT: String(port) };
    delete feedsOff.ENABLED_WEBSOCKET;
    let service = startGroup('npm', ['start'], { cwd: dir, env: feedsOff });
    try {
      const output = await waitForOutput(service, '"msg":"listening"', BANNER_TIMEOUT_MS).catch((e) => fail(e.message));
      const lines = output.split('\n').filter((l) => l.includes('ENABLED_WEBSOCKET is off'));
      if (lines.length !== 1 || !lines[0].includes('no venue is watched')) fail(`npm start without the feeds said ${lines.length} lines about it`);
      log('one line: no venue is watched, and how to start the feeds');
    } finally {
      await stopGroup(service);
    }

    log('the README\'s live command, every venue\'s endpoints pointed at the simulator through EXCHANGE_URLS');
    const simulator = startGroup(process.execPath, ['dist/simulator/main.js'], { cwd: dir, env: { ...process.env, SIM_PORT: String(simPort), SIM_WALK: '1' } });
    try {
      await waitForOutput(simulator, 'exchange simulator listening', 60_000).catch((e) => fail(e.message));
      const urls = await simulatorUrls(dir, simPort);
      service = startGroup('npm', ['start'], { cwd: dir, env: { ...process.env, PORT: String(port), ENABLED_WEBSOCKET: '1', EXCHANGE_URLS: urls } });
      await waitForOutput(service, '"msg":"listening"', BANNER_TIMEOUT_MS).catch((e) => fail(e.message));
      const prices = `http://127.0.0.1:${port}/v1/realtime/prices`;
      const seen = new Set();
      await firstEvent(prices, (frame) => {
        for (const quote of Array.isArray(frame) ? frame : []) if (quote && typeof quote.exchange === 'string') seen.add(quote.exchange);
        return seen.size >= 5;
      }, EVENT_TIMEOUT_MS);
      log(`quotes on ${prices} from ${[...seen].sort().join(', ')}`);
    } finally {
      await stopGroup(service);
      await stopGroup(simulator);
    }
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
