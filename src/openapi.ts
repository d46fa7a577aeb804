import 'reflect-metadata';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createApp } from './app.factory.js';
import { fillSections, renderSections } from './common/openapi/api-markdown.js';
import { buildOpenApiDocument, serialiseDocument } from './common/openapi/openapi-document.js';
import { findDocumentProblems } from './common/openapi/openapi-rules.js';
import { loadConfig } from './config/validate-env.js';
import { configurationDocs } from './configuration-docs.js';
import { renderVenueList, renderVenueTable } from './venues/venue-table.js';

/**
 * `npm run openapi`: writes openapi.json and the generated tables of docs/api.md from the app's
 * own metadata, the venue table of docs/venues.md and the README's venue line from the venue registry, and the
 * tables of docs/configuration.md and the README's settings from the environment schema (EnvDto's
 * @EnvDoc, the simulator's SIMULATOR_VARIABLES), on an in-memory embedded database (no server, no network, nothing listens).
 * The environment is fixed here, not read, so the output depends on the code only.
 * `--check` writes nothing and fails when a file differs from what the code produces (CI); either
 * way it fails on a variable without its description.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const files = {
  openapi: `${root}openapi.json`,
  docs: `${root}docs/api.md`,
  venues: `${root}docs/venues.md`,
  configuration: `${root}docs/configuration.md`,
  readme: `${root}README.md`,
};

async function main(check: boolean): Promise<number> {
  const app = await createApp(loadConfig({ LOG_LEVEL: 'silent', DB_PATH: ':memory:' }));
  const document = buildOpenApiDocument(app);
  await app.close();
  const configuration = configurationDocs({
    page: await readFile(files.configuration, 'utf8'),
    readme: fillSections(await readFile(files.readme, 'utf8'), { list: renderVenueList() }, 'venues'),
  });
  const expected = {
    openapi: serialiseDocument(document),
    docs: fillSections(await readFile(files.docs, 'utf8'), renderSections(document)),
    venues: fillSections(await readFile(files.venues, 'utf8'), { table: renderVenueTable() }, 'venues'),
    configuration: configuration.page,
    readme: configuration.readme,
  };
  let code = 0;
  if (configuration.problems.length > 0) {
    process.stderr.write(`The environment schema has ${configuration.problems.length} variable(s) without their row in docs/configuration.md:\n${configuration.problems.map((p) => `  ${p}`).join('\n')}\n`);
    code = 1;
  }
  for (const key of ['openapi', 'docs', 'venues', 'configuration', 'readme'] as const) {
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
