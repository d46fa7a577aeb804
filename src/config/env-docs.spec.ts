import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { envVariableNames } from './validate-env.js';

/** The configuration docs are a contract too: every variable the service reads is documented. */
describe('configuration docs', () => {
  const envExample = fs.readFileSync('.env.example', 'utf8');
  const page = fs.readFileSync('docs/configuration.md', 'utf8');
  const documentedInExample = new Set([...envExample.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]));
  const documentedInPage = new Set([...page.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]));

  it.each(envVariableNames())('%s is in .env.example and in docs/configuration.md', (name) => {
    expect(documentedInExample.has(name)).toBe(true);
    expect(documentedInPage.has(name)).toBe(true);
  });
});
