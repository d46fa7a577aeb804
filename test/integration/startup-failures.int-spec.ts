import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runServiceToExit } from '../utils/service-process.js';

/**
 * A port already taken stops the service with one line naming the port and the variable that
 * moves it (it used to be a 12-line EADDRINUSE stack). On the embedded database in memory.
 */
describe('a start on a port already in use', () => {
  const holder = net.createServer();
  let port = 0;

  beforeAll(async () => {
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    port = (holder.address() as net.AddressInfo).port;
  });
  afterAll(() => {
    holder.close();
  });

  it('stops with one line: the port, that a demo may run already, and PORT', async () => {
    const { code, output } = await runServiceToExit({ PORT: String(port), DB_PATH: ':memory:', LOG_LEVEL: 'warn' });
    expect(code).toBe(1);
    const lines = output.trim().split('\n');
    expect(lines).toEqual([`Port ${port} on 127.0.0.1 is already in use (another service, or a demo already running?): stop it, or set PORT to a free port`]);
  }, 90_000);
});
