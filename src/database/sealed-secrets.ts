import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { SecretOpenError, sealedKeyId, type Keyring } from '../common/secrets/secret-box.js';

/** Anything that runs SQL: a DataSource, an EntityManager, a migration's QueryRunner. */
type Sql = Pick<DataSource | EntityManager | QueryRunner, 'query'>;

/**
 * The one secret member of each alert channel type. Stored, it is replaced by `sealed` (the
 * sealed value, or null for a webhook without a secret); a stored channel without `sealed` was
 * written in clear by a version before sealing (rules: sealed-secrets).
 */
const CHANNEL_SECRET_MEMBER: Readonly<Record<string, string>> = { webhook: 'secret', telegram: 'botToken', discord: 'webhookUrl' };

export type ChannelJson = Record<string, unknown> & { type: string };

export function isSealedChannel(stored: ChannelJson): boolean {
  return 'sealed' in stored;
}

/** A channel as stored: its secret member sealed into `sealed`; the other members as they are. */
export function sealChannel(channel: ChannelJson, keyring: Keyring): ChannelJson {
  if (isSealedChannel(channel)) return channel;
  const member = CHANNEL_SECRET_MEMBER[channel.type];
  const { [member]: secret, ...rest } = channel;
  return { ...rest, type: channel.type, sealed: typeof secret === 'string' ? keyring.seal(secret) : null };
}

/** A stored channel with its secret member back in clear; one still in clear is answered as it is. */
export function openChannel(stored: ChannelJson, keyring: Keyring): ChannelJson {
  if (!isSealedChannel(stored)) return stored;
  const { sealed, ...rest } = stored;
  return { ...rest, type: stored.type, [CHANNEL_SECRET_MEMBER[stored.type]]: typeof sealed === 'string' ? keyring.open(sealed) : null };
}

/**
 * Every sealed value the database holds, one entry per place, so the start-up check and the
 * rotation cover them all (exchange API keys add their line here).
 */
interface SealedPlace {
  table: string;
  /** SQL giving the sealed text of a row (null where there is none). */
  value: string;
  /** SQL setting it from `$2` for the row whose id is `$1`. */
  set: string;
}

const SEALED_PLACES: readonly SealedPlace[] = [
  { table: 'alert_rules', value: `channel->>'sealed'`, set: `channel = jsonb_set(channel, '{sealed}', to_jsonb($2::text))` },
];

/** The data was sealed with a key the start was not given: the one line the start stops with. */
export class SecretsKeyMismatchError extends Error {
  constructor(storedKeyId: string, given: string, givenIds: readonly string[], altered: boolean) {
    super(
      altered
        ? `Stored secrets name key ${storedKeyId} but do not open with it: the key given (${given}) is a different key with the same id, or a value was altered; start with the key that sealed them. Nothing was changed.`
        : `Stored secrets were sealed with key ${storedKeyId}, but the key given (${given}, key ${givenIds.join(', ')}) is a different one: ` +
            `start with the key that sealed them (SECRETS_KEY, or the key file it was in), or list it in SECRETS_KEY_PREVIOUS while rotating. Nothing was changed.`,
    );
    this.name = 'SecretsKeyMismatchError';
  }
}

/**
 * Read only: opens one stored value per key id found, so a start with another key stops before
 * anything reads, writes or sends (rules: sealed-secrets).
 */
export async function assertKeyringOpensStored(db: Sql, keyring: Keyring, given: string): Promise<void> {
  for (const place of SEALED_PLACES) {
    const rows = (await db.query(
      `SELECT DISTINCT ON (split_part(${place.value}, ':', 2)) ${place.value} AS sealed FROM ${place.table} WHERE ${place.value} IS NOT NULL`,
    )) as { sealed: string }[];
    for (const { sealed } of rows) {
      const keyId = sealedKeyId(sealed) ?? 'unknown';
      if (!keyring.has(keyId)) throw new SecretsKeyMismatchError(keyId, given, keyring.keyIds, false);
      try {
        keyring.open(sealed);
      } catch (err) {
        if (err instanceof SecretOpenError) throw new SecretsKeyMismatchError(keyId, given, keyring.keyIds, true);
        throw err;
      }
    }
  }
}

/**
 * Re-seals, under the current key, up to `batch` values sealed with another key, in one
 * transaction per batch (rows locked, skipping those another rotation holds). Answers how many it
 * re-sealed: 0 when every value is under the current key.
 */
export async function resealBatch(ds: DataSource, keyring: Keyring, batch: number): Promise<number> {
  let done = 0;
  for (const place of SEALED_PLACES) {
    done += await ds.transaction(async (m) => {
      const rows = await m.query<{ id: string; sealed: string }[]>(
        `SELECT id, ${place.value} AS sealed FROM ${place.table}
         WHERE ${place.value} IS NOT NULL AND split_part(${place.value}, ':', 2) <> $1
         ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [keyring.currentId, batch],
      );
      for (const row of rows) await m.query(`UPDATE ${place.table} SET ${place.set} WHERE id = $1`, [row.id, keyring.seal(keyring.open(row.sealed))]);
      return rows.length;
    });
    if (done > 0) return done;
  }
  return done;
}

/** Seals every alert channel still stored in clear (a previous version wrote it); answers how many. */
export async function sealClearChannels(db: Sql, keyring: Keyring): Promise<number> {
  const rows = (await db.query(`SELECT id, channel FROM alert_rules WHERE NOT (channel ? 'sealed') FOR UPDATE`)) as { id: string; channel: ChannelJson }[];
  for (const row of rows) {
    await db.query(`UPDATE alert_rules SET channel = $2::jsonb WHERE id = $1`, [row.id, JSON.stringify(sealChannel(row.channel, keyring))]);
  }
  return rows.length;
}

/** Writes every sealed alert channel back in clear (the migration's down); answers how many. */
export async function openSealedChannels(db: Sql, keyring: Keyring): Promise<number> {
  const rows = (await db.query(`SELECT id, channel FROM alert_rules WHERE channel ? 'sealed' FOR UPDATE`)) as { id: string; channel: ChannelJson }[];
  for (const row of rows) {
    await db.query(`UPDATE alert_rules SET channel = $2::jsonb WHERE id = $1`, [row.id, JSON.stringify(openChannel(row.channel, keyring))]);
  }
  return rows.length;
}
