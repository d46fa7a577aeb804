import { typescriptDecorators } from '../../vitest.decorators.js';
import { defineConfig } from 'vitest/config';

// `npm run fuzz`: the CI fuzz suite (test/e2e/api-fuzz.e2e-spec.ts) with a larger budget.
// FUZZ_RUNS requests per operation (default here 500), FUZZ_SEED another seed (default 18, as
// in CI; a failure prints the seed and the shrunk request), FUZZ_VERBOSE=1 prints the statuses
// seen per operation. With DATABASE_URL set it runs on PostgreSQL, else on the embedded PGlite.
export default defineConfig({
  plugins: [typescriptDecorators()],
  test: {
    include: ['test/e2e/api-fuzz.e2e-spec.ts'],
    environment: 'node',
    env: { FUZZ_RUNS: process.env.FUZZ_RUNS ?? '500' },
    testTimeout: 3_600_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
