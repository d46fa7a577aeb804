import { useState } from 'preact/hooks';

const KEY = 'arbitrage-monitor.owner-email';

/** The owner email is asked once and kept in this browser (localStorage). */
export function readOwner(): string | null {
  try {
    return window.localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function useOwner(): [string | null, (email: string | null) => void] {
  const [owner, setOwner] = useState(readOwner);
  const save = (email: string | null): void => {
    if (email === null) window.localStorage.removeItem(KEY);
    else window.localStorage.setItem(KEY, email);
    setOwner(email);
  };
  return [owner, save];
}
