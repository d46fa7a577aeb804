import { setFlagsFromString } from 'node:v8';
import { runInThisContext } from 'node:vm';
import { EMBEDDED_WASM_FLAGS } from '../../src/database/pglite-driver.js';

/**
 * Run by embedded-wasm-tier.int-spec.ts in a process of its own, started with
 * `--allow-natives-syntax` (V8's own test functions). With PROBE_FLAGS=1 it sets
 * EMBEDDED_WASM_FLAGS at run time, as the embedded driver does before it opens the engine; then
 * it compiles a small WebAssembly module (a counting loop), calls its function until V8 would
 * have tiered it up (at most PROBE_SECONDS), and prints which compiler its code came from as one
 * JSON line.
 */
if (process.env.PROBE_FLAGS === '1') setFlagsFromString(EMBEDDED_WASM_FLAGS);

// (func (export "f") (param i32) (result i32) (local i32): adds the counter to the local until it reaches 0)
const bytes = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x06, 0x01, 0x60, 0x01, 0x7f, 0x01, 0x7f,
  0x03, 0x02, 0x01, 0x00,
  0x07, 0x05, 0x01, 0x01, 0x66, 0x00, 0x00,
  0x0a, 0x1b, 0x01, 0x19, 0x01, 0x01, 0x7f, 0x03, 0x40,
  0x20, 0x01, 0x20, 0x00, 0x6a, 0x21, 0x01,
  0x20, 0x00, 0x41, 0x01, 0x6b, 0x22, 0x00,
  0x0d, 0x00, 0x0b, 0x20, 0x01, 0x0b,
]);
// The WebAssembly global has no type in this project's libraries (no DOM, Node's types omit it).
const wasm = (globalThis as unknown as { WebAssembly: { instantiate(bytes: Uint8Array): Promise<{ instance: { exports: Record<string, unknown> } }> } }).WebAssembly;
const { instance } = await wasm.instantiate(bytes);
const f = instance.exports.f as (n: number) => number;
// V8's natives syntax is not TypeScript; V8 parses it here at run time.
const isLiftoff = runInThisContext('(f) => %IsLiftoffFunction(f)') as (fn: unknown) => boolean;
const isTurboFan = runInThisContext('(f) => %IsTurboFanFunction(f)') as (fn: unknown) => boolean;

const deadline = Date.now() + Number(process.env.PROBE_SECONDS ?? 10) * 1000;
let calls = 0;
while (!isTurboFan(f) && Date.now() < deadline) {
  for (let i = 0; i < 100; i++, calls++) f(100_000);
  await new Promise((resolve) => setTimeout(resolve, 10)); // time: tier-up compiles on a background thread with no event to wait on; the loop yields it a turn
}
process.stdout.write(`${JSON.stringify({ calls, liftoff: isLiftoff(f), turboFan: isTurboFan(f) })}\n`);
