import { typescriptDecorators } from '../vitest.decorators.js';
import { defineConfig } from 'vitest/config';

// `npm run bench:backtest`: boots the real app (TypeScript keeps Nest's decorator metadata, as in the
// test config) on a scratch PostgreSQL database and prints the backtest figures.
export default defineConfig({
  plugins: [typescriptDecorators()],
  test: {
    include: ['bench/backtest.ts'],
    environment: 'node',
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
    // gc() lets the figures separate memory the backtest keeps from garbage V8 has not collected yet.
    execArgv: ['--expose-gc'],
  },
});
