import { CreateFavoriteCryptos1763769600000 } from './1763769600000-create-favorite-cryptos.js';
import { CreateMarketSamples1763900000000 } from './1763900000000-create-market-samples.js';
import { CreateCalculators1764150000000 } from './1764150000000-create-calculators.js';
import { CreateLookers1764210000000 } from './1764210000000-create-lookers.js';
import { CreateJournalOperations1764400000000 } from './1764400000000-create-journal-operations.js';
import { CreateOpportunityHistory1764500000000 } from './1764500000000-create-opportunity-history.js';
import { CreateCrossingCounts1764650000000 } from './1764650000000-create-crossing-counts.js';
import { MarketSamplesCoveringKey1764700000000 } from './1764700000000-market-samples-covering-key.js';
import { CreateRouteEpisodes1764821000000 } from './1764821000000-create-route-episodes.js';
import { CreateAlerts1764900000000 } from './1764900000000-create-alerts.js';
import { CreateFundingSettlements1764900330000 } from './1764900330000-create-funding-settlements.js';
import { RouteEpisodesMaxSize1764900200000 } from './1764900200000-route-episodes-max-size.js';
import { CreateApiTokens1765000000000 } from './1765000000000-create-api-tokens.js';
import { AlertOutboxBlocked1765050000000 } from './1765050000000-alert-outbox-blocked.js';
import { sealAlertSecretsMigration } from './1765100000000-seal-alert-secrets.js';
import type { MigrationInterface } from 'typeorm';
import type { Keyring } from '../../common/secrets/secret-box.js';

/** Every migration, in order. A new migration is added here as well as in its file. */
export const MIGRATIONS = [CreateFavoriteCryptos1763769600000, CreateMarketSamples1763900000000, CreateCalculators1764150000000, CreateLookers1764210000000,
  CreateJournalOperations1764400000000,
  CreateOpportunityHistory1764500000000,
  CreateCrossingCounts1764650000000,
  MarketSamplesCoveringKey1764700000000,
  CreateRouteEpisodes1764821000000,
  CreateAlerts1764900000000,
  CreateFundingSettlements1764900330000,
  RouteEpisodesMaxSize1764900200000,
  CreateApiTokens1765000000000,
  AlertOutboxBlocked1765050000000,
];

/**
 * Every migration with those that seal or open stored secrets, built with the keyring the start
 * loaded (null: a tool that needs only the schema; those migrations then refuse stored secrets).
 */
export function migrationsWith(keyring: Keyring | null): (new () => MigrationInterface)[] {
  return [...MIGRATIONS, sealAlertSecretsMigration(keyring)];
}
