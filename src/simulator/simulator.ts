import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { errorReply, handleControl, type ControlDeps } from './control-api.js';
import { demoNetworks } from './demo-seed.js';
import { DEFAULT_SIM_SYMBOLS } from './instruments.js';
import { LoadGenerator } from './load-generator.js';
import { MarketState } from './market-state.js';
import { RandomWalk, seededRng } from './random-walk.js';
import { StrictMode, type StrictSettings } from './strict-mode.js';
import { EXCHANGE_PROTOCOLS } from './venues/index.js';
import type { ExchangeProtocol } from './venues/protocol.js';
import { WsHub } from './ws-hub.js';

export interface SimulatorOptions {
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** Base assets, each listed against USDT. */
  symbols?: readonly string[];
  walk?: boolean;
  walkIntervalMs?: number;
  /** Seed of the random walk (reproducible demos and tests). */
  seed?: number;
  /** Load mode: messages per second in total over every subscribed market (0: off). */
  rate?: number;
  /**
   * Strict mode (venue limits enforced and breaches counted): `true` or an object with its
   * scales turns it on. Off by default until the whole e2e suite runs under it.
   */
  strict?: boolean | Partial<StrictSettings>;
  /**
   * Demo mode: every base gets a transfer network with a realistic withdrawal fee on all five
   * venues (a few closed), and some of the walk's dislocations are wide enough to trade.
   */
  demo?: boolean;
}

export interface RunningSimulator {
  /** `http://host:port`, the value for MARKET_SIMULATOR_URL. */
  url: string;
  port: number;
  state: MarketState;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_WALK_INTERVAL_MS = 500;
/** With 20 bases and a step every 500 ms: about two tradeable routes a minute. */
const DEMO_LARGE_DISLOCATION_SHARE = 0.1;

interface Target {
  protocol: ExchangeProtocol;
  host: string;
  path: string;
}

/** `/<original-host>/<original-path>` → the exchange that owns that host. */
function targetOf(url: URL): Target | undefined {
  const [, host = '', ...rest] = url.pathname.split('/');
  const hostname = host.replace(/:\d+$/, '');
  const protocol = EXCHANGE_PROTOCOLS.find((p) => p.ownsHost(hostname));
  return protocol ? { protocol, host, path: `/${rest.join('/')}` } : undefined;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function strictSettingsOf(options: SimulatorOptions): Partial<StrictSettings> {
  const { strict } = options;
  // Strict by default, as the venues are; micro-tests of one protocol detail pass `strict: false`.
  if (strict === undefined) return { enabled: true };
  if (typeof strict === 'boolean') return { enabled: strict };
  return { enabled: true, ...strict };
}

async function readJson(req: IncomingMessage): Promise<{ ok: true; body: unknown } | { ok: false; status: number; message: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return { ok: false, status: 413, message: 'request body too large' };
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return { ok: true, body: undefined };
  try {
    return { ok: true, body: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, status: 400, message: 'Invalid request body' };
  }
}

async function onRequest(deps: ControlDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://simulator');
  const method = req.method ?? 'GET';
  if (url.pathname.startsWith('/_sim/')) {
    const parsed = await readJson(req);
    const reply = parsed.ok ? handleControl(deps, method, url.pathname, parsed.body, url.searchParams) : errorReply(parsed.status, parsed.message);
    sendJson(res, reply.status, reply.body);
    return;
  }
  const target = targetOf(url);
  if (target && deps.restDown.has(target.protocol.name)) {
    // What a venue's load balancer answers during an outage; ccxt raises ExchangeNotAvailable.
    res.writeHead(503, { 'content-type': 'text/plain' });
    res.end('Service Unavailable');
    return;
  }
  // A venue whose public calls are POSTs reads its parameters from the JSON body.
  const posted = target && method === 'POST' ? await readJson(req) : undefined;
  if (posted && !posted.ok) {
    sendJson(res, posted.status, errorReply(posted.status, posted.message).body);
    return;
  }
  const restReq = target ? { method, host: target.host, path: target.path, query: url.searchParams, headers: req.headers, body: posted?.body } : undefined;
  const limited = target && restReq ? deps.hub.strict.admitRest(target.protocol.name, restReq) : undefined;
  if (limited) {
    sendJson(res, limited.status, limited.body, limited.headers);
    return;
  }
  const reply = target && restReq ? target.protocol.rest(restReq, deps.state) : undefined;
  if (reply) sendJson(res, reply.status, reply.body);
  else sendJson(res, 404, errorReply(404, `Cannot ${method} ${url.pathname}`).body);
}

function onUpgrade(hub: WsHub, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  const target = targetOf(new URL(req.url ?? '/', 'http://simulator'));
  if (!target) {
    socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
    return;
  }
  hub.upgrade(req, socket, head, target.protocol, target.host, target.path);
}

/** Starts the exchange simulator (HTTP REST + websockets + control API) on one port. */
export async function startSimulator(options: SimulatorOptions): Promise<RunningSimulator> {
  const state = new MarketState(options.symbols ?? DEFAULT_SIM_SYMBOLS);
  const hub = new WsHub(state, new StrictMode(strictSettingsOf(options)));
  const rng = seededRng(options.seed ?? Date.now());
  const walk = new RandomWalk(state, rng, options.demo ? { largeDislocationShare: DEMO_LARGE_DISLOCATION_SHARE } : {});
  if (options.demo) for (const network of demoNetworks(state.instruments, rng)) state.networks.apply(network);
  const load = new LoadGenerator(() => hub.loadTargets());
  const deps: ControlDeps = {
    state, hub, walk, load, defaultWalkIntervalMs: options.walkIntervalMs ?? DEFAULT_WALK_INTERVAL_MS, restDown: new Set(),
  };
  const server: Server = createServer((req, res) => {
    onRequest(deps, req, res).catch(() => sendJson(res, 500, errorReply(500, 'internal error').body));
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => onUpgrade(hub, req, socket, head));
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, resolve);
  });
  if (options.walk) walk.start(deps.defaultWalkIntervalMs);
  if (options.rate) load.start({ rate: options.rate });
  const { port } = server.address() as AddressInfo;
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    state,
    close: async () => {
      walk.stop();
      load.stop();
      hub.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
