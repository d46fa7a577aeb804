import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type DnsServer } from '../utils/dns-server.js';
import { createLanNamespace, type LanNamespace } from '../utils/lan-namespace.js';
import { startServiceProcess, type ServiceProcess } from '../utils/service-process.js';

const QUIET = {
  DB_PATH: ':memory:', ENABLED_WEBSOCKET: '0', SAMPLE_INTERVAL_MS: '0', HISTORY_INTERVAL_MS: '0', FUNDING_REFRESH_MS: '0', CROSSING_JOB_ENABLED: '0',
};
const HINT = 'alert targets must be public (ALERT_TARGETS_ALLOW_PRIVATE=1 allows private ones)';
/** A public address the test's DNS may answer; nothing connects to it (saving a rule sends nothing). */
const PUBLIC = '93.184.215.14';

/**
 * rules: outbound-targets, through the resolver the service really uses. alerts-targets.e2e-spec
 * swaps the resolver for a function; here the service runs as an operator starts it, in a network
 * namespace whose resolv.conf names a DNS server this test runs, so a name goes through the
 * system resolver (getaddrinfo) and the wire, and the test decides what it resolves to.
 */
describe('alert targets judged on what the system resolver answers (rules: outbound-targets)', () => {
  let lan: LanNamespace | undefined;
  let dns: DnsServer | undefined;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    lan = await createLanNamespace({ nameserverHere: true });
    dns = await startDnsServer(lan.hostAddress);
    service = await startServiceProcess({ ...QUIET, HOST: lan.address, ALLOW_OPEN_ACCESS: '1' }, 90_000, { via: lan.exec, address: lan.address });
  }, 120_000);

  afterAll(async () => {
    service?.signal('SIGKILL');
    await service?.exited;
    await dns?.close();
    await lan?.remove();
  });

  const save = (url: string): Promise<Response> =>
    fetch(`${service!.baseUrl}/v1/alerts/rules`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'dns@example.com', name: 'dns', kind: 'feed', condition: { minutes: 2 }, channel: { type: 'webhook', url } }),
    });
  const answer = async (res: Response): Promise<{ status: number; body: { message?: string } }> =>
    ({ status: res.status, body: (await res.json()) as { message?: string } });

  it('a name whose DNS answer is 127.0.0.1 is refused at save, naming the address', async () => {
    dns!.names.set('hooks.rebind.test', ['127.0.0.1']);
    expect(await answer(await save('https://hooks.rebind.test/in'))).toEqual({
      status: 400,
      body: { statusCode: 400, message: `channel.url resolves to 127.0.0.1, a loopback address: ${HINT}`, error: 'Bad Request' },
    });
    expect(dns!.asked).toContain('hooks.rebind.test');
  });

  it('one private address among public ones refuses the name; an IPv4-mapped AAAA counts as its IPv4', async () => {
    dns!.names.set('mixed.rebind.test', [PUBLIC, '10.0.0.7']);
    expect((await answer(await save('https://mixed.rebind.test/in'))).body.message)
      .toBe(`channel.url resolves to 10.0.0.7, a private address: ${HINT}`);
    dns!.names.set('mapped.rebind.test', [PUBLIC, '::ffff:169.254.169.254']);
    expect((await answer(await save('https://mapped.rebind.test/in'))).body.message)
      .toBe(`channel.url resolves to ::ffff:169.254.169.254, a link-local address: ${HINT}`);
  });

  it('a name whose every answer is public is saved (the refusals above are about the addresses)', async () => {
    dns!.names.set('hooks.public.test', [PUBLIC]);
    const res = await save('https://hooks.public.test/in');
    expect(res.status).toBe(201);
    expect(dns!.asked).toContain('hooks.public.test');
  });
});
