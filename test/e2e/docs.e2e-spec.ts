import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fillSections, renderSections } from '../../src/common/openapi/api-markdown.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (file: string): string => readFileSync(path.join(root, file), 'utf8');
const markdownFiles = ['README.md', 'BENCHMARKS.md', ...readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** A clone has no folder beside it: the docs link only files of the repository, and those exist. */
describe('documentation stands alone', () => {
  it.each(markdownFiles)('%s links only files inside the repository', (file) => {
    const links = [...read(file).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((l) => !/^(https?:|mailto:|#)/.test(l));
    const outside = links.filter((link) => {
      const target = path.resolve(root, path.dirname(file), link.split('#')[0]);
      return !target.startsWith(root) || !existsSync(target);
    });
    expect(outside).toEqual([]);
  });

  it('docs/api.md carries the tables generated from openapi.json (npm run openapi)', () => {
    const current = read('docs/api.md');
    const document = JSON.parse(read('openapi.json')) as Parameters<typeof renderSections>[0];
    expect(fillSections(current, renderSections(document))).toBe(current);
  });

  it('docs/api.md describes both AUTH_MODE values, how a token is sent and the stream tickets; openapi.json names no JWT', () => {
    const api = read('docs/api.md');
    expect(api).not.toContain('There is no authentication');
    for (const text of ['`AUTH_MODE=none`', '`AUTH_MODE=token`', '`Authorization: Bearer <token>`', '`POST /v1/auth/stream-ticket`', '`?ticket=']) {
      expect(api).toContain(text);
    }
    const document = JSON.parse(read('openapi.json')) as { components: { securitySchemes: { bearer: { bearerFormat?: string } } } };
    expect(document.components.securitySchemes.bearer.bearerFormat).not.toBe('JWT');
  });
});
