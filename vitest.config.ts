import { typescriptDecorators } from './vitest.decorators.js';
import { defineConfig } from 'vitest/config';

// TypeScript compiles the sources so that Nest's dependency injection sees decorator metadata
// (vite's default transform does not emit it).
const plugins = [typescriptDecorators()];

export default defineConfig({
  test: {
    projects: [
      {
        plugins,
        test: {
          name: 'unit',
          // The dashboard's pure helpers (web/src/lib) are tested here too: web/ carries no test runner of its own.
          include: ['src/**/*.spec.ts', 'web/src/**/*.spec.ts'],
          environment: 'node',
        },
      },
      {
        plugins,
        test: {
          name: 'e2e',
          // A venue's own contract and fault tests sit in its simulator folder, beside its protocol.
          include: ['test/**/*.e2e-spec.ts', 'test/**/*.int-spec.ts', 'src/simulator/venues/*/*.e2e-spec.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
    ],
  },
});
