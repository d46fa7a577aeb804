import { typescriptDecorators } from '../vitest.decorators.js';
import { defineConfig } from 'vitest/config';

// `npm run bench:lookers`: boots the real app (TypeScript keeps Nest's decorator metadata) fed by the
// in-process exchange simulator; the SSE clients run in a child process.
export default defineConfig({
  plugins: [typescriptDecorators()],
  test: {
    include: ['bench/looker-streams.ts'],
    environment: 'node',
    testTimeout: 600_000,
    hookTimeout: 300_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
