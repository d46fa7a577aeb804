import { afterEach, describe, expect, it } from 'vitest';
import { runServiceToExit, startServiceProcess, type ServiceProcess } from '../utils/service-process.js';

/**
 * rules: exposure. The service as an operator starts it, in its own process: where it listens
 * with HOST unset, and what it says when HOST reaches beyond this machine with or without tokens.
 * The address is the one the kernel bound, from the service's `listening` log record.
 */
const QUIET = {
  DB_PATH: ':memory:', ENABLED_WEBSOCKET: '0', SAMPLE_INTERVAL_MS: '0', HISTORY_INTERVAL_MS: '0', FUNDING_REFRESH_MS: '0', CROSSING_JOB_ENABLED: '0',
};

type Line = { level?: string; context?: string; msg?: string; address?: string };
const records = (output: string): Line[] =>
  output.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Line);
const boundAddress = (output: string): string | undefined => records(output).find((r) => r.context === 'Bootstrap' && r.msg === 'listening')?.address;
const openAccessWarnings = (output: string): Line[] => records(output).filter((r) => r.msg?.includes('ALLOW_OPEN_ACCESS'));

describe('exposure: where the service listens and who may reach it (rules: exposure)', () => {
  let service: ServiceProcess | undefined;
  afterEach(async () => {
    service?.signal('SIGKILL');
    await service?.exited;
    service = undefined;
  });

  it('HOST unset: it listens on 127.0.0.1, with no warning', async () => {
    // An empty value is an unset variable to the validator; the helper would otherwise pass 127.0.0.1.
    service = await startServiceProcess({ ...QUIET, HOST: '' });
    expect(boundAddress(service.output())).toBe('127.0.0.1');
    expect(openAccessWarnings(service.output())).toEqual([]);
  }, 90_000);

  it('HOST=0.0.0.0 with AUTH_MODE=none and no opt-in: the start stops with one line naming both ways out', async () => {
    const { code, output } = await runServiceToExit({ ...QUIET, HOST: '0.0.0.0', AUTH_MODE: 'none' });
    expect(code).toBe(1);
    expect(output).toMatch(/^Invalid environment: HOST=0\.0\.0\.0 [^\n]*\n$/);
    expect(output).toContain('set AUTH_MODE=token');
    expect(output).toContain('ALLOW_OPEN_ACCESS=1');
  }, 90_000);

  it('HOST=0.0.0.0 with ALLOW_OPEN_ACCESS=1: it starts there and warns once', async () => {
    service = await startServiceProcess({ ...QUIET, HOST: '0.0.0.0', ALLOW_OPEN_ACCESS: '1' });
    expect(boundAddress(service.output())).toBe('0.0.0.0');
    const warnings = openAccessWarnings(service.output());
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 'warn', context: 'Config' });
    expect(warnings[0]?.msg).toContain('listening on 0.0.0.0 with AUTH_MODE=none');
  }, 90_000);

  it('HOST=0.0.0.0 with AUTH_MODE=token: it starts there without the warning', async () => {
    service = await startServiceProcess({ ...QUIET, HOST: '0.0.0.0', AUTH_MODE: 'token' });
    expect(boundAddress(service.output())).toBe('0.0.0.0');
    expect(openAccessWarnings(service.output())).toEqual([]);
  }, 90_000);
});
