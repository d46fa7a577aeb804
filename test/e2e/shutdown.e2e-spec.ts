import { beforeAll, describe, expect, it } from 'vitest';
import { rawGet } from '../utils/sse-client.js';
import { startTestApp, type TestApp } from '../utils/test-app.js';
import { sleep } from '../utils/wait.js';

describe('graceful shutdown', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ PRICES_INTERVAL_MS: '100' });
  });

  it('closing the app ends open streams, stops accepting, and closes the database', async () => {
    const stream = rawGet(`${t.baseUrl}/v1/realtime/prices`, 10_000);
    await sleep(300); // time: the raw stream is open (rawGet gives no open signal) when the app closes
    const startedAt = Date.now();
    await t.close();
    const closedIn = Date.now() - startedAt;
    const res = await stream;
    expect(res.status).toBe(200);
    expect(res.body).toContain('data: []');
    // The stream was ended by the shutdown, not by the client's 10 s timeout.
    expect(closedIn).toBeLessThan(5000);
    expect(Date.now() - startedAt).toBeLessThan(5000);
    await expect(fetch(`${t.baseUrl}/health`)).rejects.toThrow();
  });
});
