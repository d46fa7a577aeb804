import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const WAIT = path.join('utils', 'wait.ts');
const SELF = path.relative(ROOT, import.meta.filename);

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : files(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

/** A fixed wait: the shared sleep, or a bare timer promise. */
const FIXED_WAIT = /(?<![\w.])sleep\(|new Promise(?:<void>)?\(\((?:r|resolve)\) => setTimeout\((?:r|resolve),/;
const LOCAL_HELPER = /(?:const|function)\s+sleep\b/;

/**
 * Tests wait on events (an SSE client's `opened`, `until` for every condition). A wait that must
 * be time (nothing may happen meanwhile, a rate window or cache must pass, a measured window)
 * says why on its line with `// time:`; `grep -rn '// time:' test` lists them.
 */
describe('test hygiene: fixed waits', () => {
  const lines = files(ROOT)
    .filter((f) => ![WAIT, SELF].includes(path.relative(ROOT, f)))
    .flatMap((f) => readFileSync(f, 'utf8').split('\n').map((text, i) => ({ where: `${path.relative(ROOT, f)}:${i + 1}`, text })));

  it('every fixed wait states why it must be time', () => {
    expect(lines.filter((l) => FIXED_WAIT.test(l.text) && !l.text.includes('// time:')).map((l) => l.where)).toEqual([]);
  });

  it('no test keeps a sleep helper of its own (test/utils/wait.ts has the one)', () => {
    expect(lines.filter((l) => LOCAL_HELPER.test(l.text)).map((l) => l.where)).toEqual([]);
  });

  it('the check sees a wait without a reason', () => {
    expect(FIXED_WAIT.test('    await sleep(300);')).toBe(true);
    expect(FIXED_WAIT.test('await new Promise((r) => setTimeout(r, 20));')).toBe(true);
    expect(FIXED_WAIT.test("ds.query('SELECT pg_sleep(1)')")).toBe(false);
  });
});
