import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { describeSource, loadKeyring } from '../common/secrets/key-source.js';
import { loadConfig } from '../config/validate-env.js';
import { dataSourceOptions } from './database-options.js';
import { assertKeyringOpensStored, resealBatch, sealClearChannels } from './sealed-secrets.js';

/**
 * `npm run secrets -- rotate` (built: `node dist/database/secrets-cli.js rotate`): re-seals every
 * stored secret under SECRETS_KEY, opening the old ones with SECRETS_KEY_PREVIOUS, in batches of
 * one transaction each (rules: sealed-secrets). On PostgreSQL it runs beside the service; the
 * embedded folder opens in one process at a time, so stop the service first.
 */
const BATCH = 100;
const USAGE = 'usage: npm run secrets -- rotate';

// The migration runner's progress lines would bury the lines an operator needs.
Logger.overrideLogger(['error', 'warn']);
const out = (line: string): boolean => process.stdout.write(`${line}\n`);
const fail = (line: string): void => {
  process.stderr.write(`${line}\n`);
  process.exitCode = 1;
};

if (process.argv[2] !== 'rotate' || process.argv.length > 3) fail(USAGE);
else {
  try {
    await rotate();
  } catch (err) {
    fail(err instanceof Error ? `${err.name}: ${err.message}` : 'rotation failed');
  }
}

async function rotate(): Promise<void> {
  const config = loadConfig();
  const { keyring, source } = loadKeyring(config.secrets);
  const dataSource = new DataSource(dataSourceOptions(config.database, [], undefined, keyring));
  await dataSource.initialize();
  try {
    // Every stored value must open with the keys given before one of them is rewritten.
    await assertKeyringOpensStored(dataSource, keyring, describeSource(source));
    const clear = await dataSource.transaction((m) => sealClearChannels(m, keyring));
    let resealed = 0;
    for (let n = await resealBatch(dataSource, keyring, BATCH); n > 0; n = await resealBatch(dataSource, keyring, BATCH)) resealed += n;
    out(`re-sealed ${resealed} secret(s) under key ${keyring.currentId}${clear > 0 ? `, sealed ${clear} found in clear` : ''}; SECRETS_KEY_PREVIOUS can now be dropped`);
  } finally {
    await dataSource.destroy();
  }
}
