import { readFileSync } from 'node:fs';
import { IsInt, IsOptional } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { loadDemoEnv } from './config/demo-env.js';
import { EnvDoc } from './config/env-doc.js';
import { envVariableNames } from './config/validate-env.js';
import { SIMULATOR_VARIABLES } from './simulator/simulator-config.js';
import { configurationDocs, README_SETTINGS } from './configuration-docs.js';

const pages = { page: readFileSync('docs/configuration.md', 'utf8'), readme: readFileSync('README.md', 'utf8') };

class FixtureEnv {
  @EnvDoc({ description: 'HTTP port the service listens on' })
  @IsOptional()
  @IsInt({ message: 'PORT must be an integer from 1 to 65535' })
  PORT: number = 3000;

  // Added to the schema without its description.
  @IsOptional()
  @IsInt({ message: 'NEW_KNOB_MS must be an integer' })
  NEW_KNOB_MS: number = 5;
}

/** `npm run openapi` (and its --check in CI) writes and compares exactly what configurationDocs returns. */
describe('configurationDocs', () => {
  it('fails on a variable added to the schema without its description', () => {
    const { problems, page } = configurationDocs(pages, FixtureEnv, []);
    expect(problems).toEqual(['NEW_KNOB_MS has no description: add @EnvDoc({ description }) beside its validators in FixtureEnv']);
    expect(page).not.toContain('NEW_KNOB_MS');
  });

  it('finds every variable of EnvDto and the simulator documented, and the committed pages as the code writes them', () => {
    const generated = configurationDocs(pages);
    expect(generated.problems).toEqual([]);
    expect(generated.page).toBe(pages.page);
    expect(generated.readme).toBe(pages.readme);
  });

  it('shows the README settings in the README with links that resolve from the repository root', () => {
    for (const name of README_SETTINGS) expect(pages.readme).toMatch(new RegExp(`^\\| \`${name}\` \\|`, 'm'));
    expect(pages.readme).not.toContain('](../');
  });

  it('covers the demo launcher too: it reads only variables of the service or the simulator', () => {
    const read = new Set<string>();
    const env = new Proxy<Record<string, string | undefined>>({}, {
      get: (_, key) => {
        if (typeof key === 'string') read.add(key);
        return undefined;
      },
    });
    loadDemoEnv(env);
    const documented = new Set([...envVariableNames(), ...SIMULATOR_VARIABLES.map((v) => v.name)]);
    expect([...read].filter((name) => !documented.has(name))).toEqual([]);
    expect(read.size).toBeGreaterThan(0);
  });
});
