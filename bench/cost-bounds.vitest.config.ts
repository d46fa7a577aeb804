import { typescriptDecorators } from '../vitest.decorators.js';
import { defineConfig } from 'vitest/config';

// `npm run bench:cost`: 50 worst-case requests of every client-sized endpoint at once against
// the real app, /health latency measured meanwhile. Needs a quiet machine (timing); with
// DATABASE_URL set it runs on PostgreSQL, else on the embedded PGlite.
export default defineConfig({
  plugins: [typescriptDecorators()],
  test: {
    include: ['bench/cost-bounds.ts'],
    environment: 'node',
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
  },
});
