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

  it('shows how to drive the simulator on its port, with bodies its control API accepts', () => {
    for (const route of ['PUT http://localhost:8190/_sim/quotes', 'POST http://localhost:8190/_sim/walk', 'POST http://localhost:8190/_sim/pause', 'POST http://localhost:8190/_sim/drop']) {
      expect(text).toContain(`curl -X ${route}`);
    }
    expect(text).toContain('curl http://localhost:8190/_sim/state');
    const bodies = [...text.matchAll(/-d '([^']*)'/g)].map((m) => JSON.parse(m[1]) as unknown);
    const [quotes, walk, pause, drop] = bodies;
    const simulated = new Set(['BTC-USDT']);
    for (const result of [validateQuotes(quotes, simulated), validateWalk(walk), validatePause(pause, simulated), validateDrop(drop)]) {
      expect(result).toMatchObject({ ok: true });
    }
  });
});
