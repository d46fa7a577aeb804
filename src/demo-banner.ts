/**
 * What `npm run demo` prints once the service answers: the addresses to open and how to drive
 * the simulator. Kept apart from demo.ts (a process launcher) so the text is tested.
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
    `  API docs (Swagger UI)   ${api}/docs          (OpenAPI document: ${api}/docs-json)`,
    `  Health                  ${api}/health        (exchange feeds: ${api}/health/market)`,
    `  Opportunity stream      ${api}/v1/realtime/arbitrage`,
    `  Price stream            ${api}/v1/realtime/prices`,
    '',
    `Drive the simulator (${sim}):`,
    `  curl -X PUT ${sim}/_sim/quotes ${json} -d '[{"exchange":"okx","market":"SPOT","ticker":"BTC-USDT","bid":120000,"ask":120001}]'`,
    '      set a quote: okx bidding far above the others is an opportunity on the stream at once',
    `  curl -X POST ${sim}/_sim/walk ${json} -d '{"enabled":false}'      stop the random walk ({"enabled":true,"intervalMs":500} restarts it)`,
    `  curl -X POST ${sim}/_sim/pause ${json} -d '{"exchange":"gate","paused":true}'      freeze gate's quotes (they go stale after 10 s)`,
    `  curl -X POST ${sim}/_sim/drop ${json} -d '{"exchange":"bybit"}'      close bybit's websockets (the service reconnects)`,
    `  curl ${sim}/_sim/state      what the simulator holds`,
    '',
    'Ctrl-C stops both.',
    '',
  ].join('\n');
}
