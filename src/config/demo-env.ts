/**
 * Environment of `npm run demo` (src/demo.ts). The demo is a launcher, not the service: it
 * passes the operator's environment on to its two children, adding what makes them one offline
 * system. Kept here because src/config is the one place that reads process.env.
 */
export interface DemoEnv {
  simulatorPort: number;
  /** Where the launcher checks that the service answers, before printing the addresses. */
  serviceUrl: string;
  servicePort: number;
  simulatorEnv: Record<string, string | undefined>;
  serviceEnv: Record<string, string | undefined>;
  /** Lines the launcher prints before anything starts (which database the demo uses). */
  notices: string[];
}

/**
 * Dummy read-only keys, so binance, bybit and okx make their signed currency call to the
 * simulator (which accepts any signature) and the demo shows network states for all five
 * exchanges. They replace any real keys in the environment: those never leave for the simulator.
 */
const DEMO_CREDENTIALS = {
  BINANCE_API_KEY: 'demo-key',
  BINANCE_API_SECRET: 'demo-secret',
  BYBIT_API_KEY: 'demo-key',
  BYBIT_API_SECRET: 'demo-secret',
  OKX_API_KEY: 'demo-key',
  OKX_API_SECRET: 'demo-secret',
  OKX_API_PASSWORD: 'demo-passphrase',
} as const;

export function loadDemoEnv(raw: Record<string, string | undefined> = process.env): DemoEnv {
  const port = Number(raw.SIM_PORT ?? '8090');
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error('Invalid environment: SIM_PORT must be an integer from 1 to 65535');
  }
  // The service validates PORT and HOST itself; here they only say where to look for it.
  const servicePort = Number(raw.PORT ?? '3000');
  const host = raw.HOST === undefined || raw.HOST === '' || raw.HOST === '0.0.0.0' || raw.HOST === '::' ? '127.0.0.1' : raw.HOST;
  const notices = raw.DATABASE_URL
    ? [`demo: DATABASE_URL is set and not used: the demo always keeps its data in the embedded database (${raw.DB_PATH ?? './data/pglite'}, DB_PATH); \`npm start\` uses DATABASE_URL`]
    : [];
  return {
    notices,
    simulatorPort: port,
    serviceUrl: `http://${host.includes(':') ? `[${host}]` : host}:${servicePort}`,
    servicePort,
    simulatorEnv: { ...raw, SIM_PORT: String(port), SIM_WALK: raw.SIM_WALK ?? '1', SIM_DEMO: raw.SIM_DEMO ?? '1' },
    serviceEnv: {
      ...raw,
      ENABLED_WEBSOCKET: '1',
      // Every venue the simulator speaks, unless the operator chose some.
      EXCHANGES: raw.EXCHANGES ?? 'all',
      MARKET_SIMULATOR_URL: `http://127.0.0.1:${port}`,
      // The demo is offline and self-contained: always the embedded database.
      DATABASE_URL: undefined,
      ...DEMO_CREDENTIALS,
    },
  };
}
