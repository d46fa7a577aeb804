import { describe, expect, it } from 'vitest';
import { DEFAULT_SIM_SYMBOLS } from './instruments.js';
import { loadSimulatorConfig, SIMULATOR_VARIABLES } from './simulator-config.js';

describe('loadSimulatorConfig', () => {
  it('defaults: port 8090 on 127.0.0.1, the twenty symbols, no walk, strict mode on', () => {
    expect(loadSimulatorConfig({})).toEqual({ port: 8090, host: '127.0.0.1', symbols: [...DEFAULT_SIM_SYMBOLS], walk: false, rate: 0, strict: true, lifetimeScale: 1, demo: false });
  });

  it('reads SIM_PORT, SIM_SYMBOLS in any pair form, SIM_WALK, SIM_RATE', () => {
    expect(loadSimulatorConfig({ SIM_PORT: '18090', SIM_SYMBOLS: 'btc, ETHUSDT,sol-usdt,BTC', SIM_WALK: '1', SIM_RATE: '40000' }))
      .toEqual({ port: 18090, host: '127.0.0.1', symbols: ['BTC', 'ETH', 'SOL'], walk: true, rate: 40_000, strict: true, lifetimeScale: 1, demo: false });
  });

  it('reads SIM_STRICT (0 turns it off; on in load mode too) and SIM_LIFETIME_SCALE', () => {
    expect(loadSimulatorConfig({ SIM_STRICT: '0' })).toMatchObject({ strict: false });
    expect(loadSimulatorConfig({ SIM_STRICT: '1' })).toMatchObject({ strict: true });
    expect(loadSimulatorConfig({ SIM_STRICT: 'true', SIM_RATE: '100' })).toMatchObject({ strict: true, rate: 100 });
    expect(loadSimulatorConfig({ SIM_LIFETIME_SCALE: '0.001' })).toMatchObject({ lifetimeScale: 0.001 });
  });

  it('reads SIM_HOST', () => {
    expect(loadSimulatorConfig({ SIM_HOST: '0.0.0.0' })).toMatchObject({ host: '0.0.0.0' });
    expect(loadSimulatorConfig({ SIM_HOST: '::1' })).toMatchObject({ host: '::1' });
    expect(loadSimulatorConfig({ SIM_HOST: ' sim.internal ' })).toMatchObject({ host: 'sim.internal' });
  });

  it('reads SIM_DEMO', () => {
    expect(loadSimulatorConfig({ SIM_DEMO: '1' })).toMatchObject({ demo: true });
    expect(loadSimulatorConfig({ SIM_DEMO: 'false' })).toMatchObject({ demo: false });
  });

  it.each([
    [{ SIM_PORT: 'abc' }, 'SIM_PORT'],
    [{ SIM_PORT: '70000' }, 'SIM_PORT'],
    [{ SIM_SYMBOLS: 'BTC,???' }, 'SIM_SYMBOLS'],
    [{ SIM_WALK: 'maybe' }, 'SIM_WALK'],
    [{ SIM_RATE: '-1' }, 'SIM_RATE'],
    [{ SIM_RATE: '200001' }, 'SIM_RATE'],
    [{ SIM_RATE: 'fast' }, 'SIM_RATE'],
    [{ SIM_STRICT: 'yes' }, 'SIM_STRICT'],
    [{ SIM_DEMO: 'on' }, 'SIM_DEMO'],
    [{ SIM_HOST: 'http://0.0.0.0' }, 'SIM_HOST'],
    [{ SIM_HOST: '127.0.0.1:8090' }, 'SIM_HOST'],
    [{ SIM_LIFETIME_SCALE: '0' }, 'SIM_LIFETIME_SCALE'],
    [{ SIM_LIFETIME_SCALE: '11' }, 'SIM_LIFETIME_SCALE'],
  ])('names the bad variable: %j', (env, variable) => {
    expect(() => loadSimulatorConfig(env)).toThrow(variable);
  });

  it('reads only the variables docs/configuration.md lists (SIMULATOR_VARIABLES), and every one of them', () => {
    const read = new Set<string>();
    const env = new Proxy<Record<string, string | undefined>>({}, {
      get: (_, key) => {
        if (typeof key === 'string') read.add(key);
        return undefined;
      },
    });
    loadSimulatorConfig(env);
    expect([...read].sort()).toEqual(SIMULATOR_VARIABLES.map((v) => v.name).sort());
  });
});
