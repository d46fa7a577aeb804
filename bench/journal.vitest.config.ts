import { typescriptDecorators } from '../vitest.decorators.js';
import { defineConfig } from 'vitest/config';

// `npm run bench:journal`: the journal benchmarks boot the real app (SWC keeps Nest's decorator
// metadata, as in the test config) against PostgreSQL and print their figures.
export default defineConfig({
  plugins: [typescriptDecorators()],
  test: {
    // JOURNAL_BENCH=bench/journal-export.ts runs one of the two.
    include: process.env.JOURNAL_BENCH ? [process.env.JOURNAL_BENCH] : ['bench/journal-summary.ts', 'bench/journal-export.ts'],
    environment: 'node',
    testTimeout: 1_800_000,
    hookTimeout: 600_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
