import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EXCHANGE_NAMES, FIRST_EXCHANGE, VENUES, venueOf } from './registry.js';
import { renderVenueTable } from './venue-table.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const src = path.resolve(here, '..');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

/** A line of code with its comment cut off, or '' for a comment line. */
function codeOf(line: string): string {
  const trimmed = line.trim();
  if (trimmed.startsWith('*') || trimmed.startsWith('/*') || trimmed.startsWith('//')) return '';
  const comment = line.indexOf(' // ');
  return comment < 0 ? line : line.slice(0, comment);
}

describe('the venue registry', () => {
  it('keeps the API order of the first five and each name once', () => {
    expect(EXCHANGE_NAMES.slice(0, 5)).toEqual(['binance', 'bybit', 'okx', 'gate', 'bitget']);
    expect(new Set(EXCHANGE_NAMES).size).toBe(EXCHANGE_NAMES.length);
    expect(FIRST_EXCHANGE).toBe('binance');
  });

  it('has one folder per venue, named as the venue, holding its descriptor', () => {
    const folders = readdirSync(here).filter((entry) => statSync(path.join(here, entry)).isDirectory());
    expect(folders.sort()).toEqual([...EXCHANGE_NAMES].sort());
    for (const name of EXCHANGE_NAMES) {
      expect(readdirSync(path.join(here, name))).toContain(`${name}.venue.ts`);
      expect(venueOf(name).name).toBe(name);
    }
  });

  it('writes one row of the docs table per venue', () => {
    const rows = renderVenueTable().split('\n').slice(2);
    expect(rows.map((r) => /^\| \*\*([a-z]+)\*\*/.exec(r)?.[1])).toEqual(EXCHANGE_NAMES);
  });

  it('states the limits the rest of the code relies on', () => {
    for (const v of VENUES) {
      expect(v.feeds.perSubscribe, v.name).toBeLessThanOrEqual(v.feeds.perConnection);
      expect(v.depth.perSecond, v.name).toBeGreaterThan(0);
      expect(v.funding.historyCalls.calls, v.name).toBeGreaterThan(0);
      expect(Object.keys(v.endpoints.leaves), v.name).toEqual(expect.arrayContaining([...Object.keys(v.endpoints.used), v.endpoints.quotes.SPOT, v.endpoints.quotes.FUTURES]));
    }
  });
});

/**
 * Code outside the venue folders reads capabilities and never switches on a venue's name. Left
 * by name, with the reason: the read-only key variables (per venue by their nature, and moving to
 * stored accounts), the demo banner's example commands, and OpenAPI examples.
 */
const NAMED_ON_PURPOSE = [
  'config/env.dto.ts',
  'config/exchange-credentials.ts',
  'demo-banner.ts',
];

/** `simulator/venues/<name>/…`: a venue's wire protocol, the simulator side of its folder. */
const inSimulatorVenueFolder = (rel: string): boolean =>
  EXCHANGE_NAMES.some((name) => rel.startsWith(`simulator/venues/${name}/`));

describe('no venue named outside its folder', () => {
  it('finds no quoted venue name in the code of src/ outside src/venues and the simulator venue folders', () => {
    const names = new RegExp(`['"\`](${EXCHANGE_NAMES.join('|')})['"\`]`);
    const found: string[] = [];
    for (const file of filesUnder(src)) {
      const rel = path.relative(src, file).split(path.sep).join('/');
      if (!rel.endsWith('.ts') || rel.endsWith('.spec.ts') || rel.startsWith('venues/') || inSimulatorVenueFolder(rel)) continue;
      if (NAMED_ON_PURPOSE.includes(rel)) continue;
      readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
        const code = codeOf(line);
        if (names.test(code) && !/\bexample/.test(code)) found.push(`${rel}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });
});

/**
 * Adding a venue beyond the default five costs its two folders, its registry line and its rows in
 * docs/venues.md; `npm run openapi` then regenerates openapi.json, docs/api.md, docs/configuration.md and the README's venue
 * line. Any other file naming such a venue (a word, in any case, comments included) is a cost the
 * next venue would pay again.
 */
describe('a venue beyond the default five is named only in its own places', () => {
  const repo = path.resolve(src, '..');
  const extra = VENUES.filter((v) => !v.watchedByDefault).map((v) => v.name);
  const roots = ['src', 'test', 'bench', 'scripts', 'web/src', 'docs', 'README.md', 'BENCHMARKS.md', 'package.json', '.ci', 'Dockerfile', 'docker-compose.yml', '.env.example'];
  const generated = new Set(['docs/venues.md', 'docs/api.md', 'docs/configuration.md', 'openapi.json', 'src/venues/registry.ts']);
  const README_LIST = /<!-- venues:list -->[\s\S]*?<!-- \/venues:list -->/;
  /** The dashboard's API types, written from openapi.json by `npm run lint` (not committed). */
  const GENERATED_TYPES = /^web\/src\/api\/schema\.d\.ts$/;

  it.each(extra)('%s', (name) => {
    const word = new RegExp(`\\b${name}\\b`, 'i');
    const own = [`src/venues/${name}/`, `src/simulator/venues/${name}/`];
    const found: string[] = [];
    for (const root of roots) {
      const full = path.join(repo, root);
      let files: string[];
      try {
        files = statSync(full).isDirectory() ? filesUnder(full) : [full];
      } catch {
        continue;
      }
      for (const file of files) {
        const rel = path.relative(repo, file).split(path.sep).join('/');
        if (generated.has(rel) || GENERATED_TYPES.test(rel) || own.some((folder) => rel.startsWith(folder)) || rel.includes('/node_modules/')) continue;
        let text = readFileSync(file, 'utf8');
        if (rel === 'README.md') text = text.replace(README_LIST, '');
        text.split('\n').forEach((line, i) => {
          if (word.test(line)) found.push(`${rel}:${i + 1}: ${line.trim().slice(0, 120)}`);
        });
      }
    }
    expect(found).toEqual([]);
  });
});
