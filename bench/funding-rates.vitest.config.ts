import { typescriptDecorators } from '../vitest.decorators.js';
import { defineConfig } from 'vitest/config';

// `npm run bench:funding`: boots the real app (TypeScript keeps Nest's decorator metadata) with the
// in-process exchange simulator listing 3,020 USDT perpetuals (30 days of payments each seeded in the table); the HTTP load runs in a child process.
export default defineConfig({
  plugins: [typescriptDecorators()],
  test: {
    include: ['bench/funding-rates.ts'],
    environment: 'node',
    testTimeout: 600_000,
    hookTimeout: 300_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
