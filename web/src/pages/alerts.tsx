import { useEffect, useState } from 'preact/hooks';
import { api, call, errorText, type Schemas } from '../api/client';
import { ErrorNotice } from '../components/notice';
import { time } from '../lib/format';

/** Rules and deliveries are re-read this often while the page is shown (a delivery's status moves on its own). */
const POLL_MS = 5000;

/** A condition as a short line: `minProfit 0.3 · tickers BTC-USDT, ETH-USDT`. */
function conditionText(condition: Schemas['AlertConditionDto']): string {
  const parts = Object.entries(condition).map(([k, v]) => (Array.isArray(v) ? `${k} ${v.join(', ')}` : v === true ? k : `${k} ${String(v)}`));
  return parts.length > 0 ? parts.join(' · ') : 'every event';
}

/** Where it goes, as the API answers it (secrets already masked there). */
function channelText(c: Schemas['AlertChannelDto']): string {
  switch (c.type) {
    case 'webhook': return `webhook ${c.url ?? ''}${c.secret ? ' (signed)' : ''}`;
    case 'telegram': return `telegram ${c.chatId ?? ''}`;
    case 'discord': return `discord ${c.webhookUrl ?? ''}`;
  }
}

export function AlertsPage({ email }: { email: string }) {
  const [rules, setRules] = useState<Schemas['AlertRuleDto'][] | null>(null);
  const [deliveries, setDeliveries] = useState<Schemas['AlertDeliveryDto'][] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const load = async (): Promise<void> => {
      try {
        const query = { params: { query: { email } } };
        const [r, d] = await Promise.all([call(api.GET('/v1/alerts/rules', query)), call(api.GET('/v1/alerts/deliveries', query))]);
        setRules(r);
        setDeliveries(d);
        setError(null);
      } catch (e) {
        setError(errorText(e));
      }
    };
    void load();
    const t = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(t);
  }, [email]);
  return (
    <section>
      <h2>Alerts</h2>
      <p class="muted">Rules of {email} and their last deliveries. Rules are created with POST /v1/alerts/rules (see the API docs).</p>
      <ErrorNotice error={error} />
      <h3>Rules</h3>
      <table data-testid="alert-rules">
        <thead><tr><th>name</th><th>kind</th><th>condition</th><th>channel</th><th>cool-down</th><th>state</th></tr></thead>
        <tbody>
          {rules !== null && rules.length === 0 ? <tr><td colSpan={6} class="muted">No rule yet.</td></tr> : null}
          {(rules ?? []).map((r) => (
            <tr key={r.id} data-testid="alert-rule">
              <td>{r.name}</td>
              <td>{r.kind}</td>
              <td>{conditionText(r.condition)}</td>
              <td>{channelText(r.channel)}</td>
              <td>{r.cooldownSeconds} s</td>
              <td class={r.enabled ? 'pos' : 'neg'}>{r.enabled ? 'enabled' : `disabled${r.disabledReason ? `: ${r.disabledReason}` : ''}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Last deliveries</h3>
      <table data-testid="alert-deliveries">
        <thead><tr><th>fired</th><th>rule</th><th>route</th><th>channel</th><th>status</th><th>attempts</th><th>last error</th><th>delivered</th></tr></thead>
        <tbody>
          {deliveries !== null && deliveries.length === 0 ? <tr><td colSpan={8} class="muted">Nothing sent yet.</td></tr> : null}
          {(deliveries ?? []).map((d) => (
            <tr key={d.id} data-testid="alert-delivery" title={d.text}>
              <td>{time(d.firedAt)}</td>
              <td>{d.ruleName}</td>
              <td>{d.route}</td>
              <td>{d.channel}</td>
              <td class={d.status === 'delivered' ? 'pos' : d.status === 'failed' || d.status === 'blocked' ? 'neg' : ''}>{d.status}</td>
              <td>{d.attempts}</td>
              <td>{d.lastError ?? ''}</td>
              <td>{time(d.deliveredAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
