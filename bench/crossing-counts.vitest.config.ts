import { typescriptDecorators } from '../vitest.decorators.js';
import { defineConfig } from 'vitest/config';

// `npm run bench:crossing`: boots the real app (TypeScript keeps Nest's decorator metadata, as in the
// test config) on a scratch PostgreSQL database, seeds a day of samples and times the job.
export default defineConfig({
  plugins: [typescriptDecorators()],
  test: {
    include: ['bench/crossing-counts.ts'],
    environment: 'node',
    testTimeout: 1_800_000,
    hookTimeout: 600_000,
    pool: 'forks',
  },
});
