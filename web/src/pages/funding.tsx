import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, call, errorText, type Schemas } from '../api/client';
import { ErrorNotice } from '../components/notice';
import { num, pct, time } from '../lib/format';
import { paramsOf, setParams } from '../lib/hash-route';

type Entry = Schemas['FundingRateEntryDto'];
/**
 * The ranking shares the arbitrage group's 30 requests per minute per client, and the service
 * refreshes it once a minute: one request when the page opens, then one a minute while it is shown.
 */
const REFRESH_MS = 60_000;
const PAGE = 500;

const COLUMNS = [
  ['symbol', 'symbol'],
  ['exchange', 'exchange'],
  ['fundingRate', 'rate / interval'],
  ['fundingIntervalSeconds', 'interval'],
  ['intervalSource', 'interval source'],
  ['aprPercent', 'APR'],
  ['strategy', 'strategy'],
  ['nextFundingTime', 'next funding'],
] as const satisfies readonly (readonly [keyof Entry, string])[];
type SortKey = (typeof COLUMNS)[number][0];

function compare(key: SortKey, a: Entry, b: Entry): number {
  const x = a[key];
  const y = b[key];
  if (x === y) return 0;
  if (x === null) return 1;
  if (y === null) return -1;
  return x < y ? -1 : 1;
}

export function FundingPage({ params }: { params: URLSearchParams }) {
  const view = paramsOf(params, ['sort', 'dir', 'q'] as const);
  const sort: SortKey = COLUMNS.some(([k]) => k === view.sort) ? (view.sort as SortKey) : 'aprPercent';
  const dir = view.dir === 'asc' ? 1 : -1;
  const [page, setPage] = useState<Schemas['FundingRatesPageDto'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const load = async (): Promise<void> => {
      try {
        setPage(await call(api.GET('/v1/funding-rates', { params: { query: { limit: PAGE } } })));
        setError(null);
      } catch (e) {
        setError(errorText(e));
      }
    };
    void load();
    const t = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(t);
  }, []);
  const rows = useMemo(() => {
    const needle = view.q.trim().toUpperCase();
    const list = (page?.data ?? []).filter((e) => !needle || e.symbol.includes(needle) || e.exchange.toUpperCase() === needle);
    return list.sort((a, b) => dir * compare(sort, a, b));
  }, [page, sort, dir, view.q]);
  const sortBy = (key: SortKey): void => setParams({ ...view, sort: key, dir: key === sort && dir === -1 ? 'asc' : 'desc' });
  return (
    <section>
      <h2>Funding</h2>
      <div class="toolbar">
        <input type="search" name="q" placeholder="search symbol or exchange" value={view.q} onInput={(e) => setParams({ ...view, q: e.currentTarget.value })} />
        <span>{page ? `${rows.length} shown of ${page.total}, generated ${time(page.generatedAt)}` : 'loading…'}</span>
      </div>
      <ErrorNotice error={error} />
      <table data-testid="funding">
        <thead>
          <tr>
            {COLUMNS.map(([key, label]) => (
              <th key={key}>
                <button type="button" class="sort" onClick={() => sortBy(key)}>{label}{key === sort ? (dir === 1 ? ' ▲' : ' ▼') : ''}</button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((e) => (
            <tr key={`${e.exchange}|${e.contract}`} class={e.stale ? 'stale' : ''}>
              <td>{e.symbol}</td>
              <td>{e.exchange}</td>
              <td>{e.fundingRate === null ? '–' : pct(e.fundingRate * 100, 4)}</td>
              <td>{e.fundingIntervalSeconds === null ? '–' : `${num(e.fundingIntervalSeconds / 3600, 2)} h`}</td>
              <td>{e.intervalSource}</td>
              <td class={(e.aprPercent ?? 0) < 0 ? 'neg' : 'pos'}>{pct(e.aprPercent, 2)}</td>
              <td>{e.strategy}</td>
              <td>{time(e.nextFundingTime)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
