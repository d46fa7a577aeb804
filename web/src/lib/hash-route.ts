import { useEffect, useState } from 'preact/hooks';

/** Pages live in the URL's hash (`#/prices?q=btc`), so the service serves one file and API paths keep theirs. */
export interface Route {
  page: string;
  params: URLSearchParams;
}

const CHANGED = 'hash-params-changed';

export function readRoute(): Route {
  const hash = window.location.hash.replace(/^#\/?/, '');
  const [page = '', query = ''] = hash.split('?', 2);
  return { page, params: new URLSearchParams(query) };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(readRoute);
  useEffect(() => {
    const update = (): void => setRoute(readRoute());
    window.addEventListener('hashchange', update);
    window.addEventListener(CHANGED, update);
    return () => {
      window.removeEventListener('hashchange', update);
      window.removeEventListener(CHANGED, update);
    };
  }, []);
  return route;
}

/** Replaces the page's query (empty values dropped) without a new history entry. */
export function setParams(values: Record<string, string>): void {
  const { page } = readRoute();
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value !== '') params.set(key, value);
  const query = params.toString();
  window.history.replaceState(null, '', `#/${page}${query ? `?${query}` : ''}`);
  window.dispatchEvent(new Event(CHANGED));
}

/** The page's query as a plain record of the given keys ('' when absent). */
export function paramsOf<K extends string>(params: URLSearchParams, keys: readonly K[]): Record<K, string> {
  const out = {} as Record<K, string>;
  for (const key of keys) out[key] = params.get(key) ?? '';
  return out;
}
