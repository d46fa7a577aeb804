import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const repo = process.cwd();
const depcruise = path.join(repo, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const LOWER_AND_OTHERS = ['venues', 'market-model', 'config', 'common', 'redis', 'database', 'market-data', 'simulator', 'scale-out'];

let tree: string | undefined;
afterEach(() => {
  if (tree) rmSync(tree, { recursive: true, force: true });
  tree = undefined;
});

/**
 * A fake src/ with the repository's .dependency-cruiser.cjs beside it, checked the way
 * `npm run lint:deps` checks the real one. `files` maps a path under src/ to its source.
 */
function lintDeps(files: Record<string, string>): { status: number | null; output: string } {
  tree = mkdtempSync(path.join(tmpdir(), 'dep-rules-'));
  copyFileSync(path.join(repo, '.dependency-cruiser.cjs'), path.join(tree, '.dependency-cruiser.cjs'));
  writeFileSync(path.join(tree, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }));
  const all = { ...Object.fromEntries(LOWER_AND_OTHERS.map((f) => [`${f}/index.ts`, 'export const x = 1;\n'])), 'app.module.ts': 'export const root = 1;\n', ...files };
  for (const [file, source] of Object.entries(all)) {
    mkdirSync(path.dirname(path.join(tree, 'src', file)), { recursive: true });
    writeFileSync(path.join(tree, 'src', file), source);
  }
  const run = spawnSync(process.execPath, [depcruise, 'src', '--config', '.dependency-cruiser.cjs'], { cwd: tree, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const importRoot = "import { root } from '../app.module.js';\nexport const y = root;\n";

// Each check starts dependency-cruiser as `npm run lint:deps` does: seconds on a busy machine.
describe('npm run lint:deps (.dependency-cruiser.cjs)', { timeout: 60_000 }, () => {
  it('passes a tree whose features import only lower floors', () => {
    const result = lintDeps({ 'alerts/alerts.service.ts': "import { x } from '../common/index.js';\nexport const y = x;\n" });
    expect(result.output).toContain('no dependency violations found');
    expect(result.status).toBe(0);
  });

  it('fails on a feature importing the application root, for every folder of src/ that is not a named floor', () => {
    const result = lintDeps({
      // alerts, auth and dashboard were missing from the hand-written list the rules once had.
      'alerts/alerts.service.ts': importRoot,
      'auth/auth.service.ts': importRoot,
      'dashboard/dashboard.controller.ts': importRoot,
      // A folder no list names is a feature too.
      'widgets/widgets.service.ts': "import { x } from '../scale-out/index.js';\nexport const y = x;\n",
      'scale-out/relay.ts': importRoot,
    });
    expect(result.status).not.toBe(0);
    const violations = result.output.split('\n').filter((line) => /^\s*error /.test(line)).map((line) => line.trim().replace(/\s+/g, ' '));
    expect(violations.sort()).toEqual([
      'error features-below-relays: src/alerts/alerts.service.ts → src/app.module.ts',
      'error features-below-relays: src/auth/auth.service.ts → src/app.module.ts',
      'error features-below-relays: src/dashboard/dashboard.controller.ts → src/app.module.ts',
      'error features-below-relays: src/widgets/widgets.service.ts → src/scale-out/index.ts',
      'error relays-below-root: src/scale-out/relay.ts → src/app.module.ts',
      'error relays-not-imported-below-root: src/widgets/widgets.service.ts → src/scale-out/index.ts',
    ]);
  });

  it('stops when a floor it names is not a folder of src/, rather than treating a renamed floor as a feature', () => {
    tree = mkdtempSync(path.join(tmpdir(), 'dep-rules-'));
    copyFileSync(path.join(repo, '.dependency-cruiser.cjs'), path.join(tree, '.dependency-cruiser.cjs'));
    for (const folder of LOWER_AND_OTHERS.filter((f) => f !== 'redis')) mkdirSync(path.join(tree, 'src', folder), { recursive: true });
    expect(() => createRequire(path.join(tree ?? '', 'x.js'))('./.dependency-cruiser.cjs')).toThrow('names folders src/ does not have: redis');
  });
});
