/**
 * A web app's typed client, as a team would write it from openapi.json alone: types generated
 * by openapi-typescript (./api.ts, written by the contract test, never committed), calls through
 * openapi-fetch. The contract test compiles this file with `tsc --strict` (a parameter or member
 * typed wrongly in the document is a compile error here) and runs it against the app.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './api.js';

type Schemas = components['schemas'];

export interface Exchange {
  method: string;
  /** The path template of openapi.json (`/v1/lookers/{id}`). */
  path: string;
  status: number;
  contentType: string;
  body: string;
}

/**
 * Calls every non-stream operation once or more; returns every request/answer pair it made.
 * With `token` (AUTH_MODE=token) every request carries it as a bearer token, as a web app would.
 */
export async function runContract(baseUrl: string, token?: string): Promise<Exchange[]> {
  const exchanges: Exchange[] = [];
  const recorder: Middleware = {
    async onResponse({ request, response, schemaPath }) {
      const body = await response.clone().text();
      exchanges.push({ method: request.method, path: schemaPath, status: response.status, contentType: response.headers.get('content-type') ?? '', body });
      return undefined;
    },
  };
  const api = createClient<paths>({ baseUrl, headers: token === undefined ? {} : { Authorization: `Bearer ${token}` } });
  api.use(recorder);
  const email = 'contract@example.com';

  // A stream ticket: issued for a token; without AUTH_MODE=token there are none (a typed 404).
  const ticket = await api.POST('/v1/auth/stream-ticket');
  const expiresAt: number | undefined = ticket.data?.expiresAt;
  expect(token === undefined ? ticket.error?.statusCode === 404 : typeof expiresAt === 'number', `createStreamTicket (${JSON.stringify(ticket.error)})`);

  const health = await api.GET('/health');
  const status: 'ok' | undefined = health.data?.status;
  expect(status === 'ok', 'getHealth answers ok');
  const market = await api.GET('/health/market');
  const exchangesByName: Record<string, Schemas['ExchangeHealthDto']> = ok(market.data, 'getMarketHealth').exchanges;
  expect(typeof exchangesByName === 'object', 'getMarketHealth: exchanges by name');
  // No route is open here, so no book is held: the typed 404.
  const book = await api.GET('/v1/market/books', { params: { query: { exchange: 'binance', market: 'SPOT', ticker: 'BTC-USDT' } } });
  const bids: number[][] | undefined = book.data?.bids;
  expect(bids !== undefined || book.error?.message.startsWith('book not held: ') === true, `getMarketBook: a book or the 404 (${JSON.stringify(book.error)})`);

  // Favorites: the ticker goes in as any `tickers` form and comes back compact.
  const favorite = ok((await api.POST('/v1/favorite-cryptos', { body: { email, ticker: 'eth-usdt' } })).data, 'createFavoriteCrypto');
  const compact: string = favorite.ticker;
  expect(compact === 'ETHUSDT', `createFavoriteCrypto: ticker ${compact}`);
  const again = await api.POST('/v1/favorite-cryptos', { body: { email, ticker: 'ETHUSDT' } });
  const conflict: Schemas['ErrorResponseDto'] | undefined = again.error;
  expect(conflict?.statusCode === 409 && conflict.message === 'favorite crypto already exists', 'createFavoriteCrypto: 409 body');
  const favorites = ok((await api.GET('/v1/favorite-cryptos', { params: { query: { email } } })).data, 'listFavoriteCryptos');
  const createdAt: number = favorites[0].timestamp;
  expect(Number.isInteger(createdAt), 'listFavoriteCryptos: timestamp in ms');
  await api.DELETE('/v1/favorite-cryptos/{id}', { params: { path: { id: favorite.id }, query: { email } } });

  // Calculator: save, list, one reading (no market data here: a typed 404), delete.
  const saved = ok(
    (await api.POST('/v1/calculators', {
      body: { email, ticker: 'BTC-USDT', entrySpotValue: 95000, entryShortValue: 95150, entrySpotQty: 0.5, entryFuturesQty: 0.5 },
    })).data,
    'saveCalculator',
  );
  const spread: number = saved.entrySpread;
  expect(spread === 150, `saveCalculator: entrySpread ${spread}`);
  ok((await api.GET('/v1/calculators', { params: { query: { email } } })).data, 'listCalculators');
  const reading = await api.POST('/v1/calculators/process', { body: { email, ticker: 'BTC-USDT', exchange: 'binance' } });
  const pnl: number | undefined = reading.data?.pnl;
  expect(pnl !== undefined || reading.error?.message === 'market data not found', 'processCalculator: a reading or the error-body 404');
  await api.DELETE('/v1/calculators/{id}', { params: { path: { id: saved.id }, query: { email } } });

  // Lookers.
  const looker = ok(
    (await api.POST('/v1/lookers', { body: { email, name: 'Majors', cryptos: ['BTCUSDT', 'eth-usdt'], exchange: 'bybit', market: 'FUTURES' } })).data,
    'createLooker',
  );
  const market0: 'SPOT' | 'FUTURES' = looker.market;
  expect(market0 === 'FUTURES' && looker.cryptos.join() === 'BTCUSDT,ETHUSDT', 'createLooker: normalised');
  ok((await api.GET('/v1/lookers', { params: { query: { email } } })).data, 'listLookers');
  const renamed = ok(
    (await api.PATCH('/v1/lookers/{id}', { params: { path: { id: looker.id }, query: { email } }, body: { name: null, cryptos: ['SOLUSDT'] } })).data,
    'updateLooker',
  );
  const name: string | null = renamed.name;
  expect(name === null, 'updateLooker: name cleared');
  await api.DELETE('/v1/lookers/{id}', { params: { path: { id: looker.id }, query: { email } } });

  // Journal: create closed, read, correct, summary, export, import the export back, delete.
  const created = ok(
    (await api.POST('/v1/journal/operations', {
      body: {
        email, strategy: 'spot_futures', asset: 'btc', buyExchange: 'binance', sellExchange: 'binance',
        openedAt: '2026-03-01T09:30:00-03:00', quantity: 0.5, shortQuantity: 0.5, entryBuyPrice: 64000, entrySellPrice: 64100,
        closedAt: '2026-03-02T10:00:00-03:00', exitSellPrice: 64500, exitBuyPrice: 64450, tradingFees: 12.8, externalId: 'contract-1',
      },
    })).data,
    'createJournalOperation',
  );
  const netPnl: number | null = created.netPnl;
  expect(netPnl === 62.2, `createJournalOperation: netPnl ${netPnl}`);
  const page = ok((await api.GET('/v1/journal/operations', { params: { query: { email, status: 'closed', limit: 10, offset: 0 } } })).data, 'listJournalOperations');
  const total: number = page.total;
  expect(total === 1, `listJournalOperations: total ${total}`);
  ok((await api.GET('/v1/journal/operations/{id}', { params: { path: { id: created.id }, query: { email } } })).data, 'getJournalOperation');
  ok((await api.PATCH('/v1/journal/operations/{id}', { params: { path: { id: created.id }, query: { email } }, body: { notes: 'typed client' } })).data, 'updateJournalOperation');
  const summary = ok((await api.GET('/v1/journal/summary', { params: { query: { email, from: '2026-03-01T00:00:00Z', to: '2026-04-01T00:00:00Z', breakdown: 'month', metrics: 'true' } } })).data, 'getJournalSummary');
  const days: string[] = summary.series.map((d) => d.date);
  expect(days.join() === '2026-03-02', `getJournalSummary: series ${days.join()}`);
  const months: string[] = summary.breakdown.map((m) => m.key);
  expect(months.join() === '2026-03' && typeof summary.metrics?.totalProfitUsd === 'number', `getJournalSummary: breakdown ${months.join()}`);
  const csv = ok((await api.GET('/v1/journal/export.csv', { params: { query: { email } }, parseAs: 'text' })).data, 'exportJournalCsv');
  const imported = ok(
    (await api.POST('/v1/journal/import', {
      params: { query: { email } },
      body: csv,
      bodySerializer: (text: string) => text,
      headers: { 'Content-Type': 'text/csv' },
    })).data,
    'importJournalCsv',
  );
  expect(imported.created + imported.updated === 1 && imported.errors.length === 0, `importJournalCsv: ${JSON.stringify(imported)}`);
  await api.DELETE('/v1/journal/operations/{id}', { params: { path: { id: created.id }, query: { email } } });

  // The arbitrage group: funding, crossing counts, opportunity history.
  const funding = ok((await api.GET('/v1/funding-rates', { params: { query: { exchange: 'okx', symbol: 'BTC', limit: 5, offset: 0 } } })).data, 'listFundingRates');
  const generatedAt: string = funding.generatedAt;
  expect(!Number.isNaN(Date.parse(generatedAt)), 'listFundingRates: generatedAt');
  const sorted = ok((await api.GET('/v1/funding-rates', { params: { query: { ticker: 'BTC-USDT', sort: 'absApr' } } })).data, 'listFundingRates');
  const apr7d: number | null | undefined = sorted.data[0]?.apr7d;
  expect(apr7d === undefined || apr7d === null || typeof apr7d === 'number', 'listFundingRates: apr7d');
  const settled = ok((await api.GET('/v1/funding-rates/history', { params: { query: { ticker: 'BTC-USDT', exchange: 'okx', days: 7 } } })).data, 'listFundingHistory');
  expect(Array.isArray(settled), 'listFundingHistory: array');
  const spreads = ok((await api.GET('/v1/funding-rates/spreads', { params: { query: { minAprSpread: 0, days: 7, limit: 10, offset: 0 } } })).data, 'listFundingSpreads');
  expect(spreads.total >= 0 && Array.isArray(spreads.data), 'listFundingSpreads');
  const accepted = ok((await api.POST('/v1/arbitrage/future/crossing-counts', { body: { date: '2026-03-01' } })).data, 'startCrossingCount');
  const state: 'accepted' = accepted.status;
  expect(state === 'accepted' && accepted.processingDate === '2026-03-01', 'startCrossingCount');
  ok((await api.GET('/v1/arbitrage/future/crossing-counts', { params: { query: { from: '2026-03-01', to: '2026-03-07', ticker: 'btcusdt', exchange: 'binance' } } })).data, 'listCrossingCounts');
  const row: Schemas['ImportHistoryRowDto'] = {
    time: new Date(Date.now() - 60_000).toISOString(), ticker: 'BTC-USDT', buyExchange: 'binance', sellExchange: 'okx',
    buyPrice: 65000.5, sellPrice: 65390.5, grossSpreadPercent: 0.6, buyFeePercent: 0.1, sellFeePercent: 0.1,
    withdrawalFee: 0.00002, withdrawalFeeUsd: 1.3, feesEstimated: false, executable: true, volume24h: null,
  };
  const history = ok((await api.POST('/v1/opportunity-history/import', { body: [row] })).data, 'importOpportunityHistory');
  expect(history.imported === 1, 'importOpportunityHistory');
  const stats = ok(
    (await api.GET('/v1/opportunity-history/stats', { params: { query: { ticker: 'btc-usdt', buy: 'binance', sell: 'okx', days: 1, threshold: 0.3, basis: 'gross' } } })).data,
    'getOpportunityHistoryStats',
  );
  const samples: number = stats.samples;
  expect(samples === 1 && stats.maxSpread === 0.6, `getOpportunityHistoryStats: ${samples} samples`);
  const lifetimes = ok(
    (await api.GET('/v1/opportunity-history/lifetimes', { params: { query: { ticker: 'btc-usdt', buy: 'binance', sell: 'okx', days: 1 } } })).data,
    'getRouteLifetimes',
  );
  const episodes: number = lifetimes.episodes;
  expect(episodes === 0 && lifetimes.medianLifetimeMs === null, `getRouteLifetimes: ${episodes} episodes`);
  const series = ok(
    (await api.GET('/v1/opportunity-history/series', { params: { query: { ticker: 'btc-usdt', buy: 'binance', sell: 'okx', days: 1, basis: 'gross' } } })).data,
    'getSpreadSeries',
  );
  const firstPoint: Schemas['SpreadSeriesPointDto'] | undefined = series.points[0];
  expect(series.points.length === 1 && firstPoint?.maxSpread === 0.6 && firstPoint.samples === 1, `getSpreadSeries: ${series.points.length} points`);
  const recorded = ok(
    (await api.GET('/v1/opportunity-history/samples', { params: { query: { ticker: 'btc-usdt', buy: 'binance', sell: 'okx', minutes: 5, basis: 'gross' } } })).data,
    'getSpreadSamples',
  );
  const firstSample: Schemas['SpreadSampleDto'] | undefined = recorded.samples[0];
  expect(recorded.samples.length === 1 && firstSample?.time === row.time && firstSample.spread === 0.6 && !recorded.truncated, `getSpreadSamples: ${recorded.samples.length} samples`);
  const backtest = ok(
    (await api.POST('/v1/opportunity-history/backtest', { body: { ticker: 'BTCUSDT', buy: 'binance', sell: 'okx', days: 1, threshold: 0.3, basis: 'gross', capital: 1000, transferMinutes: 0, breakdown: 'week' } })).data,
    'runBacktest',
  );
  const trades: number = backtest.trades;
  const sharpe: number | null = backtest.metrics.sharpe;
  expect(Number.isInteger(trades) && backtest.equityCurve[0]?.equityUsd === 1000 && sharpe !== undefined, 'runBacktest');
  const sweep = ok(
    (await api.POST('/v1/opportunity-history/backtest/sweep', {
      body: { ticker: 'BTCUSDT', buy: 'binance', sell: 'okx', days: 1, thresholds: [0.3, 0.5], transferMinutes: [0], basis: 'gross', capital: 1000, sort: 'sharpe' },
    })).data,
    'runBacktestSweep',
  );
  const rows: number = sweep.rows.length;
  expect(rows === 2, `runBacktestSweep: ${rows} rows`);

  // Alerts: a rule with its secret masked in the answer, read, changed, deliveries, deleted.
  const alert = ok(
    (await api.POST('/v1/alerts/rules', {
      body: { email, name: 'BTC', kind: 'opportunity', condition: { minProfit: 0.3, tickers: ['btcusdt'] }, channel: { type: 'webhook', url: 'http://127.0.0.1:9/hook', secret: 'whsec_abcd1234' } },
    })).data,
    'createAlertRule',
  );
  expect(JSON.stringify(alert.channel).includes('***1234') && !JSON.stringify(alert).includes('whsec'), 'createAlertRule: secret masked');
  ok((await api.GET('/v1/alerts/rules', { params: { query: { email } } })).data, 'listAlertRules');
  ok((await api.GET('/v1/alerts/rules/{id}', { params: { path: { id: alert.id }, query: { email } } })).data, 'getAlertRule');
  const paused = ok((await api.PATCH('/v1/alerts/rules/{id}', { params: { path: { id: alert.id }, query: { email } }, body: { enabled: false } })).data, 'updateAlertRule');
  expect(paused.enabled === false, 'updateAlertRule: disabled');
  ok((await api.GET('/v1/alerts/deliveries', { params: { query: { email } } })).data, 'listAlertDeliveries');
  await api.DELETE('/v1/alerts/rules/{id}', { params: { path: { id: alert.id }, query: { email } } });
  return exchanges;
}

function ok<T>(data: T | undefined, what: string): T {
  if (data === undefined) throw new Error(`${what}: no success body`);
  return data;
}

function expect(condition: boolean, what: string): void {
  if (!condition) throw new Error(`contract: ${what}`);
}
