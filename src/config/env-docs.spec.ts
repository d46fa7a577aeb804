import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { envVariableNames } from './validate-env.js';

/** The configuration docs are a contract too: every variable the service reads is documented. */
describe('configuration docs', () => {
  const envExample = fs.readFileSync('.env.example', 'utf8');
  const readme = fs.readFileSync('README.md', 'utf8');
  const documentedInExample = new Set([...envExample.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]));
  const documentedInReadme = new Set([...readme.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]));

  it.each(envVariableNames())('%s is in .env.example and in the README configuration table', (name) => {
    expect(documentedInExample.has(name)).toBe(true);
    expect(documentedInReadme.has(name)).toBe(true);
  });
});
