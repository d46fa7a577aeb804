import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Schemas } from '../api/client';
import { StreamBanner } from '../components/notice';
import { useEventStream } from '../lib/event-stream';
import { EXCHANGES, NONE, duration, num, pct, price } from '../lib/format';
import { paramsOf, setParams } from '../lib/hash-route';
import { SIZE_COLUMNS, pricedAt, sizeCells } from '../lib/opportunity-size';

type Opportunity = Schemas['OpportunityEventDto'];
interface Row {
  event: Opportunity;
  receivedAt: number;
  firstSeenAt: number;
}

const FILTERS = ['minProfit', 'minNetProfit', 'transferable', 'exchanges', 'tickers'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;
const FRESH_MS = 3000;
/** A route with no event for this long has closed (the stream re-sends open routes' changes). */
const GONE_MS = 60_000;

const keyOf = (e: Opportunity): string => `${e.ticker}|${e.buyExchange}|${e.sellExchange}`;

function streamUrl(f: Filters): string {
  const q = new URLSearchParams();
  for (const key of FILTERS) if (f[key]) q.set(key, f[key]);
  const query = q.toString();
  return `/v1/realtime/arbitrage${query ? `?${query}` : ''}`;
}

function sizeHeading(notionalUsdt: number | null): string {
  return notionalUsdt === null ? 'at size (order books)' : `at ${num(notionalUsdt, 0)} USDT (order books)`;
}

export function OpportunitiesPage({ params }: { params: URLSearchParams }) {
  const filters = paramsOf(params, FILTERS);
  const url = streamUrl(filters);
  const [rows, setRows] = useState(new Map<string, Row>());
  const [paused, setPaused] = useState(false);
  const held = useRef<Opportunity[]>([]);
  const [heldCount, setHeldCount] = useState(0);
  const [now, setNow] = useState(Date.now());
  useEffect(() => setRows(new Map()), [url]);
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  const apply = (events: Opportunity[]): void =>
    setRows((old) => {
      const next = new Map(old);
      const at = Date.now();
      for (const event of events) next.set(keyOf(event), { event, receivedAt: at, firstSeenAt: old.get(keyOf(event))?.firstSeenAt ?? at });
      for (const [key, row] of next) if (at - row.receivedAt > GONE_MS) next.delete(key);
      return next;
    });
  const state = useEventStream(url, (data) => {
    const event = JSON.parse(data) as Opportunity;
    if (paused) {
      held.current.push(event);
      setHeldCount(held.current.length);
    } else apply([event]);
  });
  const togglePause = (): void => {
    if (paused) {
      apply(held.current);
      held.current = [];
      setHeldCount(0);
    }
    setPaused(!paused);
  };
  const sorted = useMemo(() => [...rows.values()].sort((a, b) => b.event.profitPercentAskBid - a.event.profitPercentAskBid), [rows]);
  const at = pricedAt(sorted.map((r) => r.event.size));
  return (
    <section>
      <h2>Opportunities</h2>
      <FilterBar filters={filters} />
      <div class="toolbar">
        <button type="button" onClick={togglePause} data-testid="pause">
          {paused ? `Resume (${heldCount} held)` : 'Pause'}
        </button>
        <StreamBanner state={state} />
      </div>
      <table data-testid="opportunities" class="opportunities">
        <thead>
          <tr>
            <th rowSpan={2}>ticker</th><th rowSpan={2}>buy → sell</th><th rowSpan={2} class="n">gross</th><th rowSpan={2} class="n">net</th>
            <th colSpan={2} class="group">top of book</th>
            <th colSpan={SIZE_COLUMNS.length} class="group" data-testid="priced-at">{sizeHeading(at)}</th>
            <th rowSpan={2} data-col="network">network</th><th rowSpan={2} data-col="transferable">transferable</th><th rowSpan={2} class="n" data-col="age">age</th>
          </tr>
          <tr>
            <th class="n" title="Lowest ask on the buy exchange">buy</th><th class="n" title="Highest bid on the sell exchange">sell</th>
            {SIZE_COLUMNS.map((c) => <th key={c.key} class="n" title={c.title}>{c.label}</th>)}
          </tr>
        </thead>
        <tbody>
          {sorted.length === 0 ? (
            <tr><td colSpan={9 + SIZE_COLUMNS.length} class="muted">No opportunity matches these filters yet.</td></tr>
          ) : (
            sorted.map(({ event: e, receivedAt, firstSeenAt }) => {
              const cells = sizeCells(e.size);
              return (
                <tr key={keyOf(e)} class={now - firstSeenAt < FRESH_MS ? 'fresh' : ''} data-ticker={e.ticker}>
                  <td><a href={`#/route?ticker=${e.ticker}&buy=${e.buyExchange}&sell=${e.sellExchange}`}>{e.ticker}</a></td>
                  <td>{e.buyExchange} → {e.sellExchange}</td>
                  <td class="n">{pct(e.profitPercentAskBid)}</td>
                  <td class={e.netProfitPercent < 0 ? 'n neg' : 'n'}>{pct(e.netProfitPercent)}{e.costsEstimated ? <abbr title="Some fee is a default, not the exchange’s own figure"> est.</abbr> : null}</td>
                  <td class="n" data-col="buy">{price(e.buyPrice)}</td>
                  <td class="n" data-col="sell">{price(e.sellPrice)}</td>
                  {SIZE_COLUMNS.map(({ key }) => (
                    <td key={key} class={cells[key].negative ? 'n neg' : 'n'} data-col={key} title={cells[key].title}>{cells[key].text}</td>
                  ))}
                  <td data-col="network" title={e.network === null ? 'No network known to be open for withdrawal here and deposit there' : undefined}>{e.network ?? NONE}</td>
                  <td data-col="transferable">{e.transferable ? 'yes' : 'no'}</td>
                  <td data-col="age" class="n">{duration(e.ageMs + (now - receivedAt))}</td>
                </tr>
              );
            })
          )}
        </tbody>
      </table>
    </section>
  );
}

function FilterBar({ filters }: { filters: Filters }) {
  const set = (key: keyof Filters, value: string): void => setParams({ ...filters, [key]: value });
  const chosen = new Set(filters.exchanges ? filters.exchanges.split(',') : []);
  const toggle = (exchange: string): void => {
    if (chosen.has(exchange)) chosen.delete(exchange);
    else chosen.add(exchange);
    set('exchanges', [...chosen].join(','));
  };
  return (
    <form class="filters" onSubmit={(e) => e.preventDefault()}>
      <label>min gross % <input name="minProfit" type="number" step="0.01" defaultValue={filters.minProfit} onChange={(e) => set('minProfit', e.currentTarget.value)} /></label>
      <label>min net % <input name="minNetProfit" type="number" step="0.01" defaultValue={filters.minNetProfit} onChange={(e) => set('minNetProfit', e.currentTarget.value)} /></label>
      <label>transferable
        <select name="transferable" value={filters.transferable} onChange={(e) => set('transferable', e.currentTarget.value)}>
          <option value="">any</option><option value="true">yes</option><option value="false">no</option>
        </select>
      </label>
      <label>tickers <input name="tickers" placeholder="BTC-USDT,ETH-USDT" defaultValue={filters.tickers} onChange={(e) => set('tickers', e.currentTarget.value.replace(/\s+/g, ''))} /></label>
      <fieldset>
        <legend>exchanges</legend>
        {EXCHANGES.map((x) => (
          <label key={x} class="check"><input type="checkbox" name={`exchange-${x}`} checked={chosen.has(x)} onChange={() => toggle(x)} />{x}</label>
        ))}
      </fieldset>
    </form>
  );
}
