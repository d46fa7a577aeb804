import { describe, expect, it } from 'vitest';
import { demoBanner } from './demo-banner.js';
import { validateDrop, validatePause, validateQuotes, validateWalk } from './simulator/control-validation.js';

describe('demo banner', () => {
  const text = demoBanner({ servicePort: 3100, simulatorPort: 8190 });

  it('lists the addresses to open on the service port', () => {
    for (const path of ['/docs', '/docs-json', '/health', '/health/market', '/v1/realtime/arbitrage', '/v1/realtime/prices']) {
      expect(text).toContain(`http://localhost:3100${path} `.trimEnd());
    }
  });

  it('stops the walk before it sets a quote, which the walk would otherwise move back', () => {
    expect(text.indexOf('/_sim/walk')).toBeLessThan(text.indexOf('/_sim/quotes'));
  });

  it('gives a command per stream with a filter that a demo route passes', () => {
    expect(text).toContain("curl -N 'http://localhost:3100/v1/realtime/arbitrage?transferable=true&minNetProfit=0'");
    expect(text).toContain("curl -N 'http://localhost:3100/v1/realtime/prices'");
  });

  it('names the dashboard before any other address', () => {
    const urls = [...text.matchAll(/http:\/\/localhost:\d+\S*/g)].map((m) => m[0]);
    expect(urls[0]).toBe('http://localhost:3100/');
  });

  it('shows how to drive the simulator on its port, with bodies its control API accepts', () => {
    for (const route of ['POST http://localhost:8190/_sim/walk', 'PUT http://localhost:8190/_sim/quotes', 'POST http://localhost:8190/_sim/pause', 'POST http://localhost:8190/_sim/drop']) {
      expect(text).toContain(`curl -X ${route}`);
    }
    expect(text).toContain('curl http://localhost:8190/_sim/state');
    const bodies = [...text.matchAll(/-d '([^']*)'/g)].map((m) => JSON.parse(m[1]) as unknown);
    const [walk, quotes, pause, drop] = bodies;
    const simulated = new Set(['BTC-USDT']);
    for (const result of [validateQuotes(quotes, simulated), validateWalk(walk, simulated), validatePause(pause, simulated), validateDrop(drop)]) {
      expect(result).toMatchObject({ ok: true });
    }
  });
});
