import type { AppConfig } from './app-config.js';
import { openAccessNotice } from './exposure.js';

/**
 * Settings that are valid one by one but do nothing together: each gets one warning at start,
 * naming the variable to change, instead of a service that runs silently without effect.
 */
export function startupNotices(config: AppConfig): string[] {
  const out: string[] = [];
  const { marketData } = config;
  if (marketData.simulatorUrl !== null && !marketData.websocketEnabled) {
    out.push(
      'MARKET_SIMULATOR_URL is set but ENABLED_WEBSOCKET is off: no exchange feed connects, so every exchange ' +
        'shows connected:false and the streams stay empty; set ENABLED_WEBSOCKET=1 to watch the simulator',
    );
  }
  const open = openAccessNotice(config);
  if (open !== null) out.push(open);
  return out;
}
