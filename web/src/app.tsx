import { Component, type ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { useOwner } from './lib/owner';
import { saveToken } from './lib/token';
import { useRoute } from './lib/hash-route';
import { AlertsPage } from './pages/alerts';
import { FundingPage } from './pages/funding';
import { JournalPage } from './pages/journal';
import { OpportunitiesPage } from './pages/opportunities';
import { PricesPage } from './pages/prices';
import { RoutePage } from './pages/route';
import { StatusPage } from './pages/status';

const PAGES = [
  ['opportunities', 'Opportunities'],
  ['prices', 'Prices'],
  ['route', 'Route'],
  ['funding', 'Funding'],
  ['journal', 'Journal'],
  ['alerts', 'Alerts'],
  ['status', 'Status'],
] as const;

/** A rendering failure shows its message instead of a blank page. */
class Guard extends Component<{ children: ComponentChildren }, { error: string | null }> {
  override state = { error: null as string | null };
  static override getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  override render() {
    return this.state.error ? <p class="error" role="alert">This page failed: {this.state.error}</p> : this.props.children;
  }
}

function OwnerForm({ onSave }: { onSave: (email: string) => void }) {
  const [email, setEmail] = useState('');
  const [token, setToken] = useState('');
  const save = (): void => {
    if (!email.trim()) return;
    saveToken(token.trim() || null);
    onSave(email.trim());
  };
  return (
    <form class="owner" onSubmit={(e) => { e.preventDefault(); save(); }}>
      <p>The journal and alert rules belong to an owner email (kept in this browser only).</p>
      <label>owner email <input name="owner" type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} /></label>
      <label>API token <input name="token" type="password" autocomplete="off" placeholder="only if the service asks for one" value={token} onInput={(e) => setToken(e.currentTarget.value)} /></label>
      <p class="hint">A service run with AUTH_MODE=token needs the token made for this email; it is kept for this tab only (sessionStorage).</p>
      <button type="submit">Save</button>
    </form>
  );
}

function Page({ page, params, owner, setOwner }: { page: string; params: URLSearchParams; owner: string | null; setOwner: (e: string) => void }) {
  switch (page) {
    case 'prices': return <PricesPage params={params} />;
    case 'route': return <RoutePage params={params} />;
    case 'funding': return <FundingPage params={params} />;
    case 'journal': return owner ? <JournalPage params={params} email={owner} /> : <OwnerForm onSave={setOwner} />;
    case 'alerts': return owner ? <AlertsPage email={owner} /> : <OwnerForm onSave={setOwner} />;
    case 'status': return <StatusPage />;
    default: return <OpportunitiesPage params={params} />;
  }
}

export function App() {
  const { page, params } = useRoute();
  const [owner, setOwner] = useOwner();
  const current = PAGES.some(([p]) => p === page) ? page : 'opportunities';
  return (
    <>
      <header>
        <h1>arbitrage-monitor</h1>
        <nav>
          {PAGES.map(([p, label]) => <a key={p} href={`#/${p}`} class={p === current ? 'active' : ''}>{label}</a>)}
        </nav>
        <span class="owner-line">
          {owner ? <>owner {owner} <button type="button" class="link" onClick={() => { saveToken(null); setOwner(null); }}>change</button></> : null}
          <a href="/docs">API docs</a>
        </span>
      </header>
      <main>
        <Guard key={current}>
          <Page page={current} params={params} owner={owner} setOwner={setOwner} />
        </Guard>
      </main>
    </>
  );
}
