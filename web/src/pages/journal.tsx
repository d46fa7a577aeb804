import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, call, errorText, type Schemas } from '../api/client';
import { Chart, type ChartSeries } from '../components/chart';
import { ErrorNotice } from '../components/notice';
import { SAO_PAULO_NOTE, num, pct, saoPauloTime } from '../lib/format';
import { paramsOf, setParams } from '../lib/hash-route';
import { downloadWithToken, readToken } from '../lib/token';

const FILTERS = ['status', 'strategy', 'asset', 'source', 'from', 'to'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;
const PAGE = 100;
const STRATEGIES = ['spot_futures', 'cross_exchange', 'funding', 'other'] as const;
const SUMMARY_SERIES: ChartSeries[] = [
  { label: 'net PNL of the day', color: '#2a7ab0', points: true },
  { label: 'cumulative net PNL', color: '#d9822b' },
];

/** A calendar day of the form is a São Paulo day (UTC-3 all year since 2019). */
const dayStart = (day: string): string | undefined => (day ? `${day}T00:00:00-03:00` : undefined);

function queryOf(email: string, f: Filters) {
  return {
    email,
    strategy: (f.strategy || undefined) as (typeof STRATEGIES)[number] | undefined,
    asset: f.asset || undefined,
    source: f.source || undefined,
    from: dayStart(f.from),
    to: dayStart(f.to),
  };
}

export function JournalPage({ params, email }: { params: URLSearchParams; email: string }) {
  const filters = paramsOf(params, FILTERS);
  const [page, setPage] = useState<Schemas['OperationPageDto'] | null>(null);
  const [summary, setSummary] = useState<Schemas['JournalSummaryDto'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [imported, setImported] = useState<Schemas['ImportResultDto'] | null>(null);
  const [reloads, setReloads] = useState(0);
  const key = JSON.stringify(filters);
  useEffect(() => {
    const query = queryOf(email, filters);
    const status = (filters.status || undefined) as 'open' | 'closed' | undefined;
    Promise.all([
      call(api.GET('/v1/journal/operations', { params: { query: { ...query, status, limit: PAGE } } })),
      call(api.GET('/v1/journal/summary', { params: { query } })),
    ]).then(
      ([ops, sum]) => {
        setPage(ops);
        setSummary(sum);
        setError(null);
      },
      (e: unknown) => setError(errorText(e)),
    );
  }, [email, key, reloads]);
  const importCsv = async (file: File): Promise<void> => {
    try {
      const body = await file.text();
      const result = await call(
        api.POST('/v1/journal/import', { params: { query: { email } }, body, bodySerializer: (b: string) => b, headers: { 'content-type': 'text/csv' } }),
      );
      setImported(result);
      setReloads((n) => n + 1);
    } catch (e) {
      setError(errorText(e));
    }
  };
  const exportQuery = new URLSearchParams({ email });
  for (const [k, v] of Object.entries({ ...queryOf(email, filters), status: filters.status })) if (v) exportQuery.set(k, v);
  return (
    <section>
      <h2>Journal</h2>
      <JournalFilters filters={filters} />
      <div class="toolbar">
        <a
          class="button"
          href={`/v1/journal/export.csv?${exportQuery.toString()}`}
          download="journal.csv"
          data-testid="export"
          onClick={(e) => {
            const token = readToken();
            if (!token) return;
            e.preventDefault();
            downloadWithToken(e.currentTarget.href, token, 'journal.csv').catch((x: unknown) => setError(errorText(x)));
          }}
        >Export CSV</a>
        <label class="button">Import CSV <input type="file" accept=".csv,text/csv" hidden data-testid="import" onChange={(e) => { const f = e.currentTarget.files?.[0]; if (f) void importCsv(f); }} /></label>
        {imported ? <span data-testid="imported">imported: {imported.created} created, {imported.updated} updated, {imported.errors.length} errors{imported.errors.map((x) => ` · ${JSON.stringify(x)}`).join('')}</span> : null}
      </div>
      <ErrorNotice error={error} />
      {summary ? <Summary summary={summary} /> : null}
      <Operations page={page} />
    </section>
  );
}

function Summary({ summary }: { summary: Schemas['JournalSummaryDto'] }) {
  const data = useMemo(
    () => [summary.series.map((d) => Date.parse(`${d.date}T12:00:00-03:00`) / 1000), summary.series.map((d) => d.netPnl), summary.series.map((d) => d.cumulativeNetPnl)] as [number[], number[], number[]],
    [summary],
  );
  return (
    <div class="summary" data-testid="summary">
      <p>
        net PNL <strong>{num(summary.netPnl, 2)}</strong> · gross {num(summary.grossPnl, 2)} · win rate {pct(summary.winRate, 1)} · fees {num(summary.feesPaid, 2)} · funding {num(summary.fundingReceived, 2)} · open {summary.openOperations}
      </p>
      {summary.series.length > 0 ? <Chart title="Net PNL per São Paulo day" data={data} series={SUMMARY_SERIES} days /> : <p class="muted">No closed operation in this period.</p>}
    </div>
  );
}

function Operations({ page }: { page: Schemas['OperationPageDto'] | null }) {
  if (!page) return <p class="muted">loading…</p>;
  return (
    <>
      <p data-testid="operation-count">{page.total} operations{page.total > page.data.length ? `, the newest ${page.data.length} shown` : ''}</p>
      {/* The filters' days are São Paulo days: the times read on the same calendar, whatever the browser's zone. */}
      <p class="note" data-testid="time-zone-note">{SAO_PAULO_NOTE}</p>
      <table data-testid="operations">
        <thead><tr><th>opened (São Paulo)</th><th>status</th><th>strategy</th><th>asset</th><th>buy → sell</th><th>quantity</th><th>net PNL</th><th>net %</th><th>source</th><th>notes</th></tr></thead>
        <tbody>
          {page.data.map((o) => (
            <tr key={o.id}>
              <td>{saoPauloTime(o.openedAt)}</td><td>{o.status}</td><td>{o.strategy}</td><td>{o.asset}</td><td>{o.buyExchange} → {o.sellExchange}</td>
              <td>{num(o.quantity)}</td><td class={(o.netPnl ?? 0) < 0 ? 'neg' : ''}>{num(o.netPnl, 2)}</td><td>{pct(o.netPnlPct, 2)}</td><td>{o.source}</td><td>{o.notes ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function JournalFilters({ filters }: { filters: Filters }) {
  const set = (k: keyof Filters, v: string): void => setParams({ ...filters, [k]: v });
  return (
    <form class="filters" onSubmit={(e) => e.preventDefault()}>
      <label>status <select name="status" value={filters.status} onChange={(e) => set('status', e.currentTarget.value)}><option value="">any</option><option>open</option><option>closed</option></select></label>
      <label>strategy <select name="strategy" value={filters.strategy} onChange={(e) => set('strategy', e.currentTarget.value)}><option value="">any</option>{STRATEGIES.map((s) => <option key={s}>{s}</option>)}</select></label>
      <label>asset <input name="asset" defaultValue={filters.asset} onChange={(e) => set('asset', e.currentTarget.value)} /></label>
      <label>source <input name="source" defaultValue={filters.source} onChange={(e) => set('source', e.currentTarget.value)} /></label>
      <label>from (São Paulo day) <input name="from" type="date" defaultValue={filters.from} onChange={(e) => set('from', e.currentTarget.value)} /></label>
      <label>to (exclusive) <input name="to" type="date" defaultValue={filters.to} onChange={(e) => set('to', e.currentTarget.value)} /></label>
    </form>
  );
}
