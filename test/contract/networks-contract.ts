import type { Exchange } from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExchangeCredentials } from '../../src/config/exchange-credentials.js';
import { CcxtIngest } from '../../src/market-data/ccxt/ccxt-ingest.js';
import { createExchangeClient } from '../../src/market-data/ccxt/exchange-clients.js';
import { systemClock } from '../../src/market-data/clock.js';
import type { ExchangeName } from '../../src/market-model/exchanges.js';
import type { CurrencyNetwork } from '../../src/market-data/market-data-source.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/simulator.js';

/**
 * Networks contract of an exchange whose currency call is signed: PUT /_sim/networks
 * → the REAL ccxt client, through the market-data source's fetchNetworks, with read-only keys →
 * the simulator's signed endpoint → the asset/network/state/fee set back. Without keys the
 * source knows no networks and makes no call; markets never go through the signed client.
 */
export interface SignedNetworksCase {
  exchange: Extract<ExchangeName, 'binance' | 'bybit' | 'okx'>;
  /** `/<original-host>/<path>` of the signed currency call on the simulator. */
  endpoint: string;
  /** The header carrying the API key (lower case). */
  keyHeader: string;
  /** What the exchange answers a call without that header. */
  missingKey: { status: number; body: unknown };
  /** Chain names as this exchange writes them, and the unified codes ccxt turns them into. */
  chains: { eth: [string, string]; ethL2: [string, string]; btc: [string, string] };
}

/** The private REST families of binance (sapi), bybit and okx (asset, account, user). */
const PRIVATE_PATH = /\/sapi\/|\/v5\/(asset|account|user)\//;

const CREDENTIALS: ExchangeCredentials = { apiKey: 'sim-read-only-key', secret: 'sim-secret', password: 'sim-passphrase' };

interface Request {
  client: 'market' | 'account';
  url: string;
  headers: Record<string, string>;
}

/** Records every HTTP request a ccxt client sends (ccxt's one exit point, `fetch`). */
function recorded(client: Exchange, kind: Request['client'], log: Request[]): Exchange {
  const send = client.fetch.bind(client);
  client.fetch = (url: string, method?: string, headers?: Record<string, string>, body?: string) => {
    log.push({ client: kind, url, headers: lowerCaseKeys(headers ?? {}) });
    return send(url, method, headers, body) as Promise<unknown>;
  };
  return client;
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

const byAssetAndNetwork = (a: CurrencyNetwork, b: CurrencyNetwork): number =>
  `${a.asset}|${a.network}`.localeCompare(`${b.asset}|${b.network}`);

export function describeSignedNetworksContract(c: SignedNetworksCase): void {
  describe(`${c.exchange} networks contract: signed currency call of ccxt 4.5.84 against the simulator`, () => {
    let sim: RunningSimulator;
    const sources: CcxtIngest[] = [];

    const sourceWith = (credentials: ExchangeCredentials | undefined, log: Request[]): CcxtIngest => {
      const source = new CcxtIngest({
        createClient: (e) => recorded(createExchangeClient(e, { simulatorUrl: sim.url }), 'market', log),
        createAccountClient: (e) => (credentials
          ? recorded(createExchangeClient(e, { simulatorUrl: sim.url, credentials }), 'account', log)
          : undefined),
        clock: systemClock, silenceTimeoutMs: 30_000, backoff: { baseMs: 100, maxMs: 1000 }, marketsRefreshMs: 3_600_000,
        sink: { quote: () => undefined }, onState: () => undefined,
      });
      sources.push(source);
      return source;
    };

    const put = async (items: unknown[]): Promise<void> => {
      const res = await fetch(`${sim.url}/_sim/networks`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(items) });
      expect(res.status, await res.clone().text()).toBe(200);
    };

    beforeAll(async () => {
      sim = await startSimulator({ port: 0, symbols: ['BTC', 'ETH', 'SOL'], walk: false });
    });

    afterAll(async () => {
      await Promise.all(sources.map((s) => s.close()));
      await sim?.close();
    });

    it('PUT /_sim/networks → fetchNetworks with API keys returns each network\'s states and withdrawal fee', async () => {
      const [ethId, ethCode] = c.chains.eth;
      const [l2Id, l2Code] = c.chains.ethL2;
      const [btcId, btcCode] = c.chains.btc;
      await put([
        { exchange: c.exchange, asset: 'ETH', network: ethId, withdrawEnabled: true, depositEnabled: true, withdrawFee: 0.0012 },
        { exchange: c.exchange, asset: 'ETH', network: l2Id, withdrawEnabled: false, depositEnabled: true, withdrawFee: 0.0001 },
        { exchange: c.exchange, asset: 'BTC', network: btcId, withdrawEnabled: true, depositEnabled: false, withdrawFee: 0.0002 },
        // Another exchange's state is not this one's.
        { exchange: c.exchange === 'okx' ? 'binance' : 'okx', asset: 'SOL', network: 'SOL', withdrawEnabled: true, depositEnabled: true, withdrawFee: 0.01 },
      ]);
      const log: Request[] = [];
      const networks = await sourceWith(CREDENTIALS, log).fetchNetworks(c.exchange);
      expect([...networks].sort(byAssetAndNetwork)).toEqual([
        { asset: 'BTC', network: btcCode, withdrawEnabled: true, depositEnabled: false, withdrawFee: 0.0002 },
        { asset: 'ETH', network: ethCode, withdrawEnabled: true, depositEnabled: true, withdrawFee: 0.0012 },
        { asset: 'ETH', network: l2Code, withdrawEnabled: false, depositEnabled: true, withdrawFee: 0.0001 },
      ].sort(byAssetAndNetwork));
      // One signed request and nothing else: no server-time or account look-up before it.
      expect(log.map((r) => [r.client, new URL(r.url).pathname])).toEqual([['account', c.endpoint]]);
      expect(log[0]?.headers[c.keyHeader]).toBe(CREDENTIALS.apiKey);
      expect(JSON.stringify(log)).not.toContain(CREDENTIALS.secret);
    });

    it('a later PUT changes what the next refresh reads', async () => {
      await put([{ exchange: c.exchange, asset: 'BTC', network: c.chains.btc[0], withdrawEnabled: false, depositEnabled: true, withdrawFee: 0.0003 }]);
      const networks = await sourceWith(CREDENTIALS, []).fetchNetworks(c.exchange);
      expect(networks.filter((n) => n.asset === 'BTC')).toEqual([
        { asset: 'BTC', network: c.chains.btc[1], withdrawEnabled: false, depositEnabled: true, withdrawFee: 0.0003 },
      ]);
    });

    it('without API keys no network is known (the `recorders` rule defaults apply) and no signed call is made', async () => {
      const log: Request[] = [];
      expect(await sourceWith(undefined, log).fetchNetworks(c.exchange)).toEqual([]);
      expect(log).toEqual([]);
    });

    it('with API keys configured, loading markets still makes only the public market calls, unsigned', async () => {
      const log: Request[] = [];
      const source = sourceWith(CREDENTIALS, log);
      expect((await source.listMarkets(c.exchange)).length).toBeGreaterThan(0);
      expect(log.length).toBeGreaterThan(0);
      for (const r of log) {
        expect(r.client).toBe('market');
        expect(new URL(r.url).pathname).not.toMatch(PRIVATE_PATH);
        expect(r.headers[c.keyHeader]).toBeUndefined();
      }
    });

    it('the simulator refuses the signed call without the API key header, in the exchange\'s own error format', async () => {
      const res = await fetch(`${sim.url}${c.endpoint}?timestamp=${Date.now()}&signature=anything`);
      expect({ status: res.status, body: await res.json() }).toEqual(c.missingKey);
      const signed = await fetch(`${sim.url}${c.endpoint}`, { headers: { [c.keyHeader]: 'any-key' } });
      expect(signed.status).toBe(200);
    });
  });
}
