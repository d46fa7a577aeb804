import type { StreamState } from '../lib/event-stream';

/** An API error as its message; never a blank page. */
export function ErrorNotice({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p class="error" role="alert" data-testid="error">
      {error}
    </p>
  );
}

export function StreamBanner({ state }: { state: StreamState }) {
  return (
    <div class="stream-state" data-testid="stream-state">
      <span class={`dot ${state.status}`} /> {state.status}
      {state.resumedFrom ? <span data-testid="resumed"> · reconnected ({state.reconnects}), resumed after event #{state.resumedFrom}</span> : null}
      {state.message ? (
        <span class="banner" role="alert" data-testid="stream-banner">
          {state.message}
        </span>
      ) : null}
    </div>
  );
}
