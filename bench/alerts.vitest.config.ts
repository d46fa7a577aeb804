import { typescriptDecorators } from '../vitest.decorators.js';
import { defineConfig } from 'vitest/config';

// `npm run bench:alerts`: the real app fed by the simulator's random walk over the default
// universe, 1,000 alert rules across 100 emails, deliveries to a local webhook receiver.
export default defineConfig({
  plugins: [typescriptDecorators()],
  test: {
    include: ['bench/alerts.ts'],
    environment: 'node',
    testTimeout: 600_000,
    hookTimeout: 300_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
