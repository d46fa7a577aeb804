/**
 * What `npm run demo` prints once the service answers: the addresses to open, a command per
 * stream that shows events at once, and how to drive the simulator. Kept apart from demo.ts (a
 * process launcher) so the text is tested, and the newcomer check runs every command it prints.
 */
export interface DemoAddresses {
  servicePort: number;
  simulatorPort: number;
}

export function demoBanner({ servicePort, simulatorPort }: DemoAddresses): string {
  const api = `http://localhost:${servicePort}`;
  const sim = `http://localhost:${simulatorPort}`;
  const json = `-H 'Content-Type: application/json'`;
  return [
    '',
    'arbitrage-monitor demo is up: five simulated exchanges, embedded database, no network needed.',
    '',
    `  Dashboard               ${api}/             (opportunities, prices, route, funding, journal, status)`,
    `  API docs (Swagger UI)   ${api}/docs          (OpenAPI document: ${api}/docs-json)`,
    `  Health                  ${api}/health        (exchange feeds: ${api}/health/market)`,
    '',
    'Watch the streams (Ctrl-C ends one):',
    `  curl -N '${api}/v1/realtime/arbitrage?transferable=true&minNetProfit=0'`,
    '      routes that pay after both taker fees and the withdrawal; one opens every minute or so',
    `  curl -N '${api}/v1/realtime/arbitrage?minProfit=0.1'      every route above 0.1 % gross`,
    `  curl -N '${api}/v1/realtime/prices'      every quote, once a second`,
    `  curl '${api}/v1/funding-rates?limit=5'      the funding ranking`,
    '',
    `Drive the simulator (${sim}):`,
    `  curl -X POST ${sim}/_sim/walk ${json} -d '{"enabled":false}'      stop the random walk first ({"enabled":true,"intervalMs":500} restarts it)`,
    `  curl -X PUT ${sim}/_sim/quotes ${json} -d '[{"exchange":"okx","market":"SPOT","ticker":"BTC-USDT","bid":120000,"ask":120001}]'`,
    '      set a quote: okx bidding far above the others is an opportunity on the stream at once (the walk would move it back)',
    `  curl -X POST ${sim}/_sim/pause ${json} -d '{"exchange":"gate","paused":true}'      freeze gate's quotes (they go stale after 10 s)`,
    `  curl -X POST ${sim}/_sim/drop ${json} -d '{"exchange":"bybit"}'      close bybit's websockets (the service reconnects)`,
    `  curl ${sim}/_sim/state      what the simulator holds`,
    '',
    'Ctrl-C stops both.',
    '',
  ].join('\n');
}
