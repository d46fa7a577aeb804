// Prints the gzipped size of the JavaScript the dashboard loads first (the entry script and what
// it preloads) and fails the build beyond the budget.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const BUDGET_BYTES = 200 * 1024;
// WEB_DIST_DIR points the check at another build folder (its test uses one made up for it).
const dist = process.env.WEB_DIST_DIR ? pathToFileURL(`${path.resolve(process.env.WEB_DIST_DIR)}/`) : new URL('../dist/', import.meta.url);
const html = readFileSync(new URL('index.html', dist), 'utf8');
const scripts = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/([^"]+\.js)"/g)].map((m) => m[1]);
if (scripts.length === 0) {
  console.error('check-size: no script found in dist/index.html');
  process.exit(1);
}
let total = 0;
for (const file of scripts) {
  const size = gzipSync(readFileSync(new URL(file, dist))).length;
  total += size;
  console.log(`initial JS ${file}: ${(size / 1024).toFixed(1)} KB gzipped`);
}
const verdict = total <= BUDGET_BYTES ? 'within' : 'OVER';
console.log(`initial JS total: ${(total / 1024).toFixed(1)} KB gzipped, ${verdict} the ${BUDGET_BYTES / 1024} KB budget`);
if (total > BUDGET_BYTES) process.exit(1);
