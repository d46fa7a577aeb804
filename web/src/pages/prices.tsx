import { useEffect, useRef, useState } from 'preact/hooks';
import { StreamBanner } from '../components/notice';
import { rangeAt, VirtualRows } from '../components/virtual-rows';
import { INITIAL_STREAM_STATE, type StreamState } from '../lib/stream-watch';
import { setParams } from '../lib/hash-route';
import { readToken } from '../lib/token';
import type { FromPricesWorker, PriceRow } from '../workers/prices-protocol';

const ROW_HEIGHT = 26;
const HEIGHT = 560;

interface Rows {
  total: number;
  matched: number;
  first: number;
  rows: PriceRow[];
  frames: number;
}

function PriceCells({ row }: { row: PriceRow }) {
  return (
    <div class={`cells${row.stale ? ' stale' : ''}`} data-testid="price-row">
      {row.cells.map((text, i) => <span key={i}>{text}</span>)}
    </div>
  );
}

/** The 1 s snapshot of every quote, read by a worker; the page renders the rows in view only. */
export function PricesPage({ params }: { params: URLSearchParams }) {
  const query = params.get('q') ?? '';
  const worker = useRef<Worker | null>(null);
  const [data, setData] = useState<Rows>({ total: 0, matched: 0, first: 0, rows: [], frames: 0 });
  const [state, setState] = useState<StreamState>(INITIAL_STREAM_STATE);
  const [top, setTop] = useState(0);
  useEffect(() => {
    const w = new Worker(new URL('../workers/prices.worker.ts', import.meta.url), { type: 'module' });
    w.onmessage = (e: MessageEvent<FromPricesWorker>) => {
      if (e.data.type === 'state') setState(e.data.state);
      else setData(e.data);
    };
    worker.current = w;
    return () => w.terminate();
  }, []);
  useEffect(() => {
    worker.current?.postMessage({ query, ...rangeAt(top, ROW_HEIGHT, HEIGHT, Number.MAX_SAFE_INTEGER), token: readToken() });
  }, [query, top]);
  return (
    <section data-frames={data.frames}>
      <h2>Prices</h2>
      <div class="toolbar">
        <input type="search" name="q" placeholder="search ticker or exchange" value={query} onInput={(e) => setParams({ q: e.currentTarget.value })} />
        <span data-testid="price-count">{data.matched} of {data.total} markets</span>
        <StreamBanner state={state} />
      </div>
      <VirtualRows
        total={data.matched}
        rowHeight={ROW_HEIGHT}
        height={HEIGHT}
        first={data.first}
        onScrollTop={setTop}
        header={<><span>ticker</span><span>exchange</span><span>market</span><span>bid</span><span>ask</span><span>bid qty</span><span>ask qty</span><span>24 h volume</span><span>updated</span></>}
        row={(i) => {
          const row = data.rows[i - data.first];
          return row ? <PriceCells row={row} /> : null;
        }}
      />
    </section>
  );
}
