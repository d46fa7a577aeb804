import { envRows, renderEnvTable, type EnvRow } from './config/env-doc.js';
import { EnvDto } from './config/env.dto.js';
import { fillSections } from './common/openapi/api-markdown.js';
import { SIMULATOR_VARIABLES } from './simulator/simulator-config.js';

/** The settings the README shows; docs/configuration.md has them all. */
export const README_SETTINGS = ['PORT', 'HOST', 'DATABASE_URL', 'ENABLED_WEBSOCKET', 'AUTH_MODE'] as const;

/**
 * The generated parts of docs/configuration.md (every variable of the service's schema and of the
 * simulator) and of the README (its five settings), between `<!-- config:<name> -->` markers.
 * `problems` names every variable that cannot have its row; `npm run openapi` fails on any.
 */
export function configurationDocs(
  current: { page: string; readme: string },
  schema: new () => object = EnvDto,
  simulator: readonly EnvRow[] = SIMULATOR_VARIABLES,
): { page: string; readme: string; problems: string[] } {
  const { rows, problems } = envRows(schema);
  const byName = new Map(rows.map((r) => [r.name, r]));
  const readmeRows = README_SETTINGS.flatMap((name) => {
    const row = byName.get(name);
    return row ? [{ ...row, description: fromRepositoryRoot(row.description) }] : [];
  });
  return {
    page: fillSections(current.page, { service: renderEnvTable(rows), simulator: renderEnvTable(simulator) }, 'config'),
    readme: fillSections(current.readme, { readme: renderEnvTable(readmeRows) }, 'config'),
    problems,
  };
}

/** Descriptions link as seen from docs/; the README sits one folder up. */
function fromRepositoryRoot(text: string): string {
  return text.replace(/\]\((?!https?:|#|\.\.\/)/g, '](docs/').replace(/\]\(\.\.\//g, '](');
}
