import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * The embedded engine's WebAssembly stays on V8's baseline compiler (rules: embedded-memory).
 * V8 ignores, without a word, a flag set at run time that it no longer reads: `--liftoff-only`
 * alone stopped applying on Node 24's V8 and the engine tiered up again (955 MB peak in
 * embedded-memory.int-spec.ts's probe on Node 24). A process of its own
 * (embedded-wasm-tier.probe.ts) sets EMBEDDED_WASM_FLAGS as the driver does and runs a hot
 * WebAssembly function: it stays on Liftoff, while without the flags the same function is
 * recompiled by TurboFan (the control that shows the probe is hot enough to tier up).
 */
async function tier(flags: boolean): Promise<{ calls: number; liftoff: boolean; turboFan: boolean }> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--allow-natives-syntax', '--import', './scripts/ts-loader/register.mjs', 'test/integration/embedded-wasm-tier.probe.ts'], {
    env: { ...process.env, NODE_OPTIONS: '', PROBE_FLAGS: flags ? '1' : '0', PROBE_SECONDS: flags ? '3' : '20' },
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { calls: number; liftoff: boolean; turboFan: boolean };
}

describe('embedded engine on Liftoff', () => {
  it('with EMBEDDED_WASM_FLAGS set at run time a hot WebAssembly function is never recompiled by TurboFan', async () => {
    const [flagged, plain] = await Promise.all([tier(true), tier(false)]);
    expect(plain.turboFan, `without the flags: ${JSON.stringify(plain)}`).toBe(true);
    expect(flagged, `with the flags: ${JSON.stringify(flagged)}`).toMatchObject({ liftoff: true, turboFan: false });
  }, 90_000);
});
