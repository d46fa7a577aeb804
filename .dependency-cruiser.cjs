const fs = require('node:fs');
const path = require('node:path');

/**
 * The floors of src/ (docs/architecture.md draws them): a folder imports only from its own floor's
 * allowance below it, never from a floor above. `npm run lint:deps` checks every import, type-only
 * imports included, and `npm run lint` (so CI) fails on the first crossing.
 */
const LOWER_FLOORS = ['venues', 'market-model', 'config', 'common', 'redis', 'database', 'market-data'];
/** The simulator is its own program and scale-out/ holds the relays the root wires in: neither is a feature. */
const NOT_FEATURES = [...LOWER_FLOORS, 'simulator', 'scale-out'];

/**
 * Every other folder of src/ is a feature, read from the folder list so a new one is held to the
 * feature rules from its first file. A named floor that is gone stops the check: a rename must
 * update this file rather than turn that floor into a feature unnoticed.
 */
function featureFolders(src) {
  const folders = fs.readdirSync(src, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  const missing = NOT_FEATURES.filter((name) => !folders.includes(name));
  if (missing.length > 0) throw new Error(`.dependency-cruiser.cjs names folders src/ does not have: ${missing.join(', ')}`);
  return folders.filter((name) => !NOT_FEATURES.includes(name)).sort();
}

const FEATURES = `^src/(${featureFolders(path.join(__dirname, 'src')).join('|')})/`;

/** A rule that lets files under `from` import only from the folders named in `allowed`. */
function floor(name, from, allowed, comment) {
  return {
    name,
    comment,
    severity: 'error',
    // A venue's contract tests in its simulator folder drive the service's clients: tests are not floors.
    from: { path: from, pathNot: '\\.e2e-spec\\.ts$' },
    to: { path: '^src/', pathNot: `^src/(${allowed.join('|')})/` },
  };
}

module.exports = {
  forbidden: [
    floor('venues-import-nothing', '^src/venues/', ['venues'], 'The venue folders and their registry are descriptions: they import nothing of ours.'),
    floor('market-model-floor', '^src/market-model/', ['market-model', 'venues'], 'The market model (exchange names, markets, tickers) knows only the venue registry.'),
    floor('config-floor', '^src/config/', ['config', 'market-model', 'venues'], 'config/ reads the environment and may know only the market model.'),
    floor('common-floor', '^src/common/', ['common', 'config', 'market-model', 'venues'], 'common/ may read config and the market model, nothing above them.'),
    floor(
      'infrastructure-floor',
      '^src/(redis|database)/',
      ['redis', 'database', 'common', 'config', 'market-model', 'venues'],
      'redis/ and database/ sit below every feature: they may import common, config and the market model only.',
    ),
    floor(
      'market-data-floor',
      '^src/market-data/',
      ['market-data', 'redis', 'database', 'common', 'config', 'market-model', 'venues'],
      'The market-data core sits below the features and the relays.',
    ),
    floor(
      'simulator-is-its-own-program',
      '^src/simulator/',
      ['simulator', 'common', 'config', 'market-model', 'venues'],
      'The simulator speaks the venues\u2019 protocols on its own; it shares only the market model, config and common.',
    ),
    {
      name: 'features-below-relays',
      comment: 'Features never import the relays (scale-out/), the simulator, or the application root.',
      severity: 'error',
      from: { path: FEATURES },
      to: { path: '^src/(scale-out/|simulator/|[^/]+\\.ts$)' },
    },
    {
      name: 'relays-below-root',
      comment: 'The relays are wired in by the application root (src/*.ts) and never import it (the floor rules hold every lower folder to the same).',
      severity: 'error',
      from: { path: '^src/scale-out/' },
      to: { path: '^src/[^/]+\\.ts$' },
    },
    {
      name: 'nothing-imports-the-simulator',
      comment: 'The simulator is a separate program: no floor of the service loads it (only the demo launcher at the root does).',
      severity: 'error',
      from: { path: '^src/[^/]+/', pathNot: '^src/simulator/' },
      to: { path: '^src/simulator/' },
    },
    {
      name: 'relays-not-imported-below-root',
      comment: 'Only the application root wires the relays in.',
      severity: 'error',
      from: { path: '^src/[^/]+/', pathNot: '^src/scale-out/' },
      to: { path: '^src/scale-out/' },
    },
    {
      name: 'no-folder-cycle',
      comment: 'Two folders never import each other, directly or through a third: a cycle that leaves its folder crosses a floor.',
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: { circular: true, viaSomeNot: '^src/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/.*\\.d\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
