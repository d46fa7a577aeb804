import 'reflect-metadata';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createApp } from './app.factory.js';
import { fillSections, renderSections } from './common/openapi/api-markdown.js';
import { buildOpenApiDocument, serialiseDocument } from './common/openapi/openapi-document.js';
import { findDocumentProblems } from './common/openapi/openapi-rules.js';
import { loadConfig } from './config/validate-env.js';
import { renderVenueList, renderVenueTable } from './venues/venue-table.js';

/**
 * `npm run openapi`: writes openapi.json and the generated tables of docs/api.md from the app's
 * own metadata, and the venue table of docs/venues.md and the README's venue line from the venue registry, on an in-memory embedded database (no server, no network, nothing listens).
 * The environment is fixed here, not read, so the output depends on the code only.
 * `--check` writes nothing and fails when either file differs from what the code produces (CI).
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const files = { openapi: `${root}openapi.json`, docs: `${root}docs/api.md`, venues: `${root}docs/venues.md`, readme: `${root}README.md` };

async function main(check: boolean): Promise<number> {
  const app = await createApp(loadConfig({ LOG_LEVEL: 'silent', DB_PATH: ':memory:' }));
  const document = buildOpenApiDocument(app);
  await app.close();
  const expected = {
    openapi: serialiseDocument(document),
    docs: fillSections(await readFile(files.docs, 'utf8'), renderSections(document)),
    venues: fillSections(await readFile(files.venues, 'utf8'), { table: renderVenueTable() }, 'venues'),
    readme: fillSections(await readFile(files.readme, 'utf8'), { list: renderVenueList() }, 'venues'),
  };
  let code = 0;
  for (const key of ['openapi', 'docs', 'venues', 'readme'] as const) {
    const current = await readFile(files[key], 'utf8').catch(() => '');
    if (current === expected[key]) continue;
    if (check) {
      process.stderr.write(`${files[key]} differs from what the code produces: run \`npm run openapi\` and commit it\n`);
      code = 1;
    } else {
      await writeFile(files[key], expected[key]);
      process.stdout.write(`wrote ${files[key]}\n`);
    }
  }
  const problems = findDocumentProblems(document);
  if (problems.length > 0) {
    process.stderr.write(`The OpenAPI document has ${problems.length} problem(s):\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
    code = 1;
  }
  return code;
}

process.exitCode = await main(process.argv.includes('--check'));
