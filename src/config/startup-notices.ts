import type { AppConfig } from './app-config.js';
import { openAccessNotice } from './exposure.js';

/**
 * Settings that are valid one by one but do nothing together: each gets one warning at start,
 * naming the variable to change, instead of a service that runs silently without effect.
 */
export function startupNotices(config: AppConfig): string[] {
  const out: string[] = [];
  const feeds = feedsNotice(config);
  if (feeds !== null) out.push(feeds);
  const open = openAccessNotice(config);
  if (open !== null) out.push(open);
  return out;
}

/** Feeds that stay off: said once, with the variable that starts them. */
function feedsNotice(config: AppConfig): string | null {
  const { marketData } = config;
  // An API instance never watches a venue itself (the ingest process does), whatever the flag says.
  if (marketData.websocketEnabled || config.scaleOut.role === 'api') return null;
  if (marketData.simulatorUrl !== null) {
    return 'MARKET_SIMULATOR_URL is set but ENABLED_WEBSOCKET is off: no exchange feed connects, so every exchange ' +
      'shows connected:false and the streams stay empty; set ENABLED_WEBSOCKET=1 to watch the simulator';
  }
  return 'ENABLED_WEBSOCKET is off: no venue is watched, /health/market says feeds "off" and the streams stay empty; ' +
    'set ENABLED_WEBSOCKET=1 to start the live feeds';
}
