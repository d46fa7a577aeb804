import type { MigrationInterface, QueryRunner } from 'typeorm';
import type { Keyring } from '../../common/secrets/secret-box.js';
import { openSealedChannels, sealClearChannels } from '../sealed-secrets.js';

/**
 * Seals the alert channels' secrets (webhook secret, bot token, Discord webhook URL) that earlier
 * versions stored in clear (rules: sealed-secrets). A migration is built with the keyring the
 * start loaded, since TypeORM gives migrations nothing but SQL; without one (a tool that only
 * needs the schema) it refuses only when there is something to seal or open.
 */
export function sealAlertSecretsMigration(keyring: Keyring | null): new () => MigrationInterface {
  return class SealAlertSecrets1765100000000 implements MigrationInterface {
    name = 'SealAlertSecrets1765100000000';

    async up(q: QueryRunner): Promise<void> {
      const [{ clear }] = (await q.query(`SELECT count(*)::int AS clear FROM alert_rules WHERE NOT (channel ? 'sealed')`)) as { clear: number }[];
      if (clear === 0) return;
      await sealClearChannels(q, needKeyring(keyring));
    }

    async down(q: QueryRunner): Promise<void> {
      const [{ sealed }] = (await q.query(`SELECT count(*)::int AS sealed FROM alert_rules WHERE channel ? 'sealed'`)) as { sealed: number }[];
      if (sealed === 0) return;
      await openSealedChannels(q, needKeyring(keyring));
    }
  };
}

function needKeyring(keyring: Keyring | null): Keyring {
  if (!keyring) throw new Error('sealing stored alert secrets needs the secrets key (SECRETS_KEY or the key file)');
  return keyring;
}
