import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { CcxtIngest } from '../ccxt/ccxt-ingest.js';
import { createExchangeClient } from '../ccxt/exchange-clients.js';
import { systemClock } from '../clock.js';
import { EXCHANGE_NAMES, type ExchangeName } from '../../market-model/exchanges.js';
import type { FromWorker, IngestWorkerConfig, IngestWorkerStats, RestMethod, ToWorker } from './ingest-protocol.js';
import { TickAccumulator } from './tick-batch.js';
import { createDepthFeeds } from '../depth/worker-depth.js';

/**
 * Entry of an ingest worker thread: the ccxt clients of its exchanges, their feeds, and the
 * accumulator that batches their quotes to the serving thread. Nothing here runs on the
 * serving thread, which never loads ccxt.
 */
if (isMainThread || parentPort === null) throw new Error('ingest-worker.main runs only as a worker thread');
const port = parentPort;
const config = workerData as IngestWorkerConfig;
const post = (message: FromWorker, transfer?: ArrayBuffer[]): void => port.postMessage(message, transfer);

let batches = 0;
const accumulator = new TickAccumulator(
  EXCHANGE_NAMES.length,
  (batch) => {
    batches++;
    post({ kind: 'ticks', batch }, [batch.buffer as ArrayBuffer]);
  },
  config.batch,
);

const ingest = new CcxtIngest({
  createClient: (exchange) => createExchangeClient(exchange, { simulatorUrl: config.simulatorUrl ?? undefined, urls: config.exchangeUrls[exchange] }),
  createAccountClient: (exchange) => {
    const credentials = config.credentials[exchange];
    return credentials && createExchangeClient(exchange, { simulatorUrl: config.simulatorUrl ?? undefined, urls: config.exchangeUrls[exchange], credentials });
  },
  clock: systemClock,
  silenceTimeoutMs: config.silenceTimeoutMs,
  backoff: config.backoff,
  marketsRefreshMs: config.marketsRefreshMs,
  sink: accumulator,
  onState: (event) => post({ kind: 'state', event }),
});

const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();

/** CPU time of this thread (Linux: /proc/thread-self), else its event-loop busy time. */
function threadCpuMicros(): number {
  try {
    const fields = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return performance.eventLoopUtilization().active * 1000;
  }
}

function stats(): IngestWorkerStats {
  return {
    received: accumulator.counts.received,
    conflated: accumulator.counts.conflated,
    bookMessages: EXCHANGE_NAMES.map((e) => depth?.messages(e) ?? 0),
    batches,
    loopDelayP50Ms: loopDelay.percentile(50) / 1e6,
    loopDelayP99Ms: loopDelay.percentile(99) / 1e6,
    loopDelayMaxMs: loopDelay.max / 1e6,
    heapUsedBytes: process.memoryUsage().heapUsed,
    cpuMicros: threadCpuMicros(),
  };
}

const statsTimer = setInterval(() => {
  post({ kind: 'stats', stats: stats() });
  loopDelay.reset();
}, config.statsIntervalMs);

function call(method: RestMethod, exchange: ExchangeName, history?: { ticker: string; since: number }): Promise<unknown> {
  switch (method) {
    case 'listMarkets':
      return ingest.listMarkets(exchange);
    case 'fetchVolumes':
      return ingest.fetchVolumes(exchange);
    case 'fetchFundingRates':
      return ingest.fetchFundingRates(exchange);
    case 'fetchTradingFees':
      return ingest.fetchTradingFees(exchange);
    case 'fetchNetworks':
      return ingest.fetchNetworks(exchange);
    case 'fetchFundingHistory':
      return history ? ingest.fetchFundingHistory(exchange, history.ticker, history.since) : Promise.reject(new Error('fetchFundingHistory needs a perpetual'));
  }
}

let gc: (() => void) | undefined;

// Order books of open routes: created on the first depth message, so a worker without any costs nothing.
let depth: ReturnType<typeof createDepthFeeds> | undefined;

port.on('message', (message: ToWorker) => {
  switch (message.kind) {
    case 'call':
      call(message.method, message.exchange, message.history).then(
        (value) => post({ kind: 'result', id: message.id, ok: true, value }),
        (err: unknown) => {
          const error = err instanceof Error ? { name: err.name, message: err.message } : { name: 'Error', message: String(err) };
          post({ kind: 'result', id: message.id, ok: false, error });
        },
      );
      return;
    case 'watch':
      accumulator.addMarkets(message.indexes, EXCHANGE_NAMES.indexOf(message.exchange));
      ingest.watch(message.exchange, message.market, message.tickers, message.indexes);
      return;
    case 'depth':
      depth ??= createDepthFeeds(config, ingest, (batch) => post({ kind: 'books', batch }, [batch.buffer as ArrayBuffer]));
      depth.hold(message.exchange, message.market, message.books);
      return;
    case 'gc':
      if (!gc) {
        setFlagsFromString('--expose-gc');
        gc = runInNewContext('gc') as () => void;
      }
      gc();
      post({ kind: 'result', id: message.id, ok: true, value: stats() });
      return;
    case 'close':
      clearInterval(statsTimer);
      loopDelay.disable();
      void Promise.all([ingest.close(), depth?.close()]).then(() => {
        accumulator.flush();
        post({ kind: 'closed' });
        port.close();
      });
      return;
  }
});
