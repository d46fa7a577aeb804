import { readFileSync } from 'node:fs';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

// The dashboard ships with the service it is built beside, so the service's version is known here.
const service = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

export default defineConfig({
  plugins: [preact()],
  define: { __SERVICE_VERSION__: JSON.stringify(service.version) },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', assetsDir: 'assets' },
  // `npm run dev --prefix web` beside a running service: the API stays on the service's port.
  server: { proxy: { '/v1': 'http://localhost:3000', '/health': 'http://localhost:3000' } },
});
