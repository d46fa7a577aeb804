import { useEffect, useState } from 'preact/hooks';
import { api, call, errorText, type Schemas } from '../api/client';
import { ErrorNotice } from '../components/notice';
import { time } from '../lib/format';

/** /health and /health/market are outside the rate-limited group; polled every 5 s while shown. */
const POLL_MS = 5000;

export function StatusPage() {
  const [market, setMarket] = useState<Schemas['MarketHealthDto'] | null>(null);
  const [health, setHealth] = useState<string>('…');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const load = async (): Promise<void> => {
      try {
        setMarket(await call(api.GET('/health/market')));
        const res = await api.GET('/health');
        setHealth(res.response.ok ? 'ok' : `unavailable (${res.response.status})`);
        setError(null);
      } catch (e) {
        setError(errorText(e));
      }
    };
    void load();
    const t = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(t);
  }, []);
  const exchanges = Object.entries(market?.exchanges ?? {});
  return (
    <section>
      <h2>Status</h2>
      <p>
        Service version <strong data-testid="version">{__SERVICE_VERSION__}</strong> · health <strong data-testid="health">{health}</strong>
      </p>
      <ErrorNotice error={error} />
      {market?.feeds === 'off' ? <p class="muted" data-testid="feeds-off">Feeds off: no venue is watched (the service runs without ENABLED_WEBSOCKET=1).</p> : null}
      <table data-testid="feeds">
        <thead><tr><th>exchange</th><th>connected</th><th>last message</th><th>reconnects</th><th>markets</th><th>refused</th></tr></thead>
        <tbody>
          {exchanges.length === 0 ? <tr><td colSpan={6} class="muted">No exchange feed configured.</td></tr> : null}
          {exchanges.map(([name, x]) => (
            <tr key={name}>
              <td>{name}</td>
              <td class={x.connected ? 'pos' : 'neg'}>{x.connected ? 'connected' : 'disconnected'}</td>
              <td>{time(x.lastMessageAt)}</td>
              <td>{x.reconnects}</td>
              <td>{x.markets}</td>
              <td>{x.refused.length}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {market && market.excluded.length > 0 ? <p>Excluded (name collisions): {market.excluded.map((e) => `${e.exchange} ${e.ticker} (${e.reason})`).join("; ")}</p> : null}
    </section>
  );
}
