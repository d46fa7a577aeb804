// The TypeORM DataSource for the migration CLI. Built to dist/database/cli-data-source.js,
// which `npm run migration:run` / `migration:revert` pass to the CLI.
export { default } from './src/database/cli-data-source.js';
