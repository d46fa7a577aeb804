import { useMemo, useState } from 'preact/hooks';
import { api, call, errorText, type Schemas } from '../api/client';
import { Chart, type ChartSeries } from '../components/chart';
import { ErrorNotice } from '../components/notice';
import { EXCHANGES, duration, num, pct, time } from '../lib/format';
import { paramsOf, readRoute, setParams } from '../lib/hash-route';
import { heldSteps } from '../lib/held-samples';

type Exchange = (typeof EXCHANGES)[number];
const FIELDS = ['ticker', 'buy', 'sell', 'days', 'threshold', 'basis', 'capital', 'transferMinutes', 'minutes'] as const;
type Form = Record<(typeof FIELDS)[number], string>;
const DEFAULTS: Form = { ticker: 'BTC-USDT', buy: 'binance', sell: 'okx', days: '7', threshold: '0.3', basis: 'net', capital: '1000', transferMinutes: '0', minutes: '60' };
const SPREAD_SERIES: ChartSeries[] = [{ label: 'spread at entry %', color: '#2a7ab0', points: true }, { label: 'spread at exit %', color: '#d9822b', points: true }];
/** When the backtest answers an equity curve it is drawn; otherwise each trade's net result. */
const EQUITY_SERIES: ChartSeries[] = [{ label: 'equity USD', color: '#3a9b5c', points: true }];
const TRADE_SERIES: ChartSeries[] = [{ label: 'net USD per trade', color: '#3a9b5c', points: true }];

/** The recorded spread, one line per bucket figure: lowest, average, highest. */
const HISTORY_SERIES: ChartSeries[] = [
  { label: 'lowest %', color: '#9bb7cc' },
  { label: 'average %', color: '#2a7ab0' },
  { label: 'highest %', color: '#d9822b' },
];

/** The recorded samples themselves, each held until the next one (at most the heartbeat). */
const SAMPLE_SERIES: ChartSeries[] = [{ label: 'spread %', color: '#2a7ab0', stepped: true }];

interface Loaded {
  stats: Schemas['HistoryStatsDto'];
  lifetimes: Schemas['RouteLifetimesDto'];
  series: Schemas['SpreadSeriesDto'];
  samples: Schemas['SpreadSamplesDto'];
}

interface EquityPoint {
  time: string;
  equityUsd: number;
}

const isEquityPoint = (p: unknown): p is EquityPoint =>
  typeof p === 'object' && p !== null && typeof (p as { time?: unknown }).time === 'string' && typeof (p as { equityUsd?: unknown }).equityUsd === 'number';

/** The backtest's `equityCurve` ([{ time, equityUsd }]) when the service answers one. */
function equityCurveOf(result: Schemas['BacktestResultDto']): [number[], number[]] | null {
  const curve: unknown = (result as { equityCurve?: unknown }).equityCurve;
  if (!Array.isArray(curve)) return null;
  const points = curve.filter(isEquityPoint);
  return points.length > 0 ? [points.map((p) => Date.parse(p.time) / 1000), points.map((p) => p.equityUsd)] : null;
}

function formOf(params: URLSearchParams): Form {
  const given = paramsOf(params, FIELDS);
  return { ...DEFAULTS, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== '')) };
}

/** What the request asks, read from the URL when a button is pressed (a field changed just before is in it). */
function routeOf(form: Form) {
  return { ticker: form.ticker, buy: form.buy as Exchange, sell: form.sell as Exchange, days: Number(form.days), threshold: Number(form.threshold), basis: form.basis as 'net' | 'gross' };
}

/**
 * Routes share the arbitrage group's 30 requests a minute: nothing is fetched until asked, and
 * the same history asked again within HISTORY_CACHE_MS is answered from here (the recorder adds a
 * sample every 10 s; a bucket of the shortest look-back is about 3 minutes wide).
 */
const HISTORY_CACHE_MS = 30_000;
const historyCache = new Map<string, { at: number; loaded: Loaded }>();

async function cachedHistory(key: string, load: () => Promise<Loaded>): Promise<Loaded> {
  const hit = historyCache.get(key);
  if (hit && Date.now() - hit.at < HISTORY_CACHE_MS) return hit.loaded;
  const loaded = await load();
  historyCache.set(key, { at: Date.now(), loaded });
  return loaded;
}

export function RoutePage({ params }: { params: URLSearchParams }) {
  const form = formOf(params);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [backtest, setBacktest] = useState<Schemas['BacktestResultDto'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async <T,>(work: () => Promise<T>, done: (v: T) => void): Promise<void> => {
    try {
      done(await work());
      setError(null);
    } catch (e) {
      setError(errorText(e));
    }
  };
  const loadHistory = (): Promise<void> => {
    const form = formOf(readRoute().params);
    const route = routeOf(form);
    const minutes = Number(form.minutes);
    return run(
      () => cachedHistory(JSON.stringify({ ...route, minutes }), async () => ({
        stats: await call(api.GET('/v1/opportunity-history/stats', { params: { query: route } })),
        lifetimes: await call(api.GET('/v1/opportunity-history/lifetimes', { params: { query: { ticker: route.ticker, buy: route.buy, sell: route.sell, days: route.days } } })),
        series: await call(api.GET('/v1/opportunity-history/series', { params: { query: { ticker: route.ticker, buy: route.buy, sell: route.sell, days: route.days, basis: route.basis } } })),
        samples: await call(api.GET('/v1/opportunity-history/samples', { params: { query: { ticker: route.ticker, buy: route.buy, sell: route.sell, minutes, basis: route.basis } } })),
      })),
      setLoaded,
    );
  };
  const runBacktest = (): Promise<void> => {
    const now = formOf(readRoute().params);
    const body = { ...routeOf(now), capital: Number(now.capital), transferMinutes: Number(now.transferMinutes), breakdown: 'day' as const };
    return run(() => call(api.POST('/v1/opportunity-history/backtest', { body })), setBacktest);
  };
  const set = (k: keyof Form, v: string): void => setParams({ ...form, [k]: v });
  return (
    <section>
      <h2>Route</h2>
      <form class="filters" onSubmit={(e) => { e.preventDefault(); void loadHistory(); }}>
        <label>ticker <input name="ticker" defaultValue={form.ticker} onChange={(e) => set('ticker', e.currentTarget.value)} /></label>
        <label>buy <select name="buy" value={form.buy} onChange={(e) => set('buy', e.currentTarget.value)}>{EXCHANGES.map((x) => <option key={x}>{x}</option>)}</select></label>
        <label>sell <select name="sell" value={form.sell} onChange={(e) => set('sell', e.currentTarget.value)}>{EXCHANGES.map((x) => <option key={x}>{x}</option>)}</select></label>
        <label>days <input name="days" type="number" defaultValue={form.days} onChange={(e) => set('days', e.currentTarget.value)} /></label>
        <label>threshold % <input name="threshold" type="number" step="0.01" defaultValue={form.threshold} onChange={(e) => set('threshold', e.currentTarget.value)} /></label>
        <label>basis <select name="basis" value={form.basis} onChange={(e) => set('basis', e.currentTarget.value)}><option>net</option><option>gross</option></select></label>
        <label>samples of the last minutes <input name="minutes" type="number" defaultValue={form.minutes} onChange={(e) => set('minutes', e.currentTarget.value)} /></label>
        <button type="submit" data-testid="load-history">Load history</button>
      </form>
      <ErrorNotice error={error} />
      {loaded ? <History loaded={loaded} /> : <p class="muted">Choose a route and load its recorded history.</p>}
      <h3>Backtest</h3>
      <form class="filters" onSubmit={(e) => { e.preventDefault(); void runBacktest(); }}>
        <label>capital USD <input name="capital" type="number" defaultValue={form.capital} onChange={(e) => set('capital', e.currentTarget.value)} /></label>
        <label>transfer minutes <input name="transferMinutes" type="number" defaultValue={form.transferMinutes} onChange={(e) => set('transferMinutes', e.currentTarget.value)} /></label>
        <button type="submit" data-testid="run-backtest">Run backtest</button>
      </form>
      {backtest ? <Backtest result={backtest} /> : null}
    </section>
  );
}

function History({ loaded: { stats, lifetimes, series, samples } }: { loaded: Loaded }) {
  const held = useMemo(() => heldSteps(samples.samples, samples.holdMs), [samples]);
  const chart = useMemo(
    () => [series.points.map((p) => Date.parse(p.time) / 1000), series.points.map((p) => p.minSpread), series.points.map((p) => p.avgSpread), series.points.map((p) => p.maxSpread)] as [number[], number[], number[], number[]],
    [series],
  );
  return (
    <div data-testid="history">
      <p>
        {stats.samples} samples ({time(stats.firstSampleAt)} → {time(stats.lastSampleAt)}) · {stats.windows} windows above {pct(stats.threshold, 2)} ({stats.basis}) for {num(stats.minutesAbove, 1)} min ·
        spread max {pct(stats.maxSpread)}, average {pct(stats.avgSpread)}, p50 {pct(stats.p50Spread)}, p90 {pct(stats.p90Spread)}
      </p>
      <p>
        lifetimes: {lifetimes.episodes} episodes · median {duration(lifetimes.medianLifetimeMs)} · p90 {duration(lifetimes.p90LifetimeMs)} · transferable {lifetimes.transferableShare === null ? '–' : pct(lifetimes.transferableShare * 100, 1)}
      </p>
      <p class="muted" data-testid="series-summary">
        spread history ({series.basis}): {series.points.length} buckets of {duration(series.bucketSeconds * 1000)}
      </p>
      {series.points.length > 0 ? <Chart title={`Recorded ${series.basis} spread %`} data={chart} series={HISTORY_SERIES} /> : null}
      <p class="muted" data-testid="samples-summary">
        recorded samples ({samples.basis}), last {samples.minutes} min: {samples.samples.length}{samples.truncated ? ' (the newest only)' : ''}, each held until the next, at most {duration(samples.holdMs)}
      </p>
      {samples.samples.length > 0 ? <Chart title={`Recorded ${samples.basis} spread % as sampled`} data={held} series={SAMPLE_SERIES} /> : null}
    </div>
  );
}

function Backtest({ result }: { result: Schemas['BacktestResultDto'] }) {
  const spreads = useMemo(() => [result.history.map((t) => Date.parse(t.entry) / 1000), result.history.map((t) => t.entrySpread), result.history.map((t) => t.exitGrossSpread)] as [number[], number[], (number | null)[]], [result]);
  const curve = useMemo(() => equityCurveOf(result), [result]);
  const trades = useMemo(() => [result.history.map((t) => Date.parse(t.entry) / 1000), result.history.map((t) => t.netUsd)] as [number[], (number | null)[]], [result]);
  return (
    <div data-testid="backtest">
      <p>
        {result.trades} trades ({result.completed} completed, {result.expired} expired, {result.unresolved} unresolved) · net {num(result.netUsd, 2)} USD ({pct(result.netPercent, 2)}) · gross {num(result.grossUsd, 2)} USD · win rate {pct(result.winRate, 1)}
      </p>
      {result.history.length > 0 ? (
        <>
          <Chart title="Recorded spread at each entry and exit" data={spreads} series={SPREAD_SERIES} />
          {curve ? <Chart title="Equity curve" data={curve} series={EQUITY_SERIES} /> : <Chart title="Net result per trade" data={trades} series={TRADE_SERIES} />}
        </>
      ) : <p class="muted">No trade in the look-back.</p>}
    </div>
  );
}
