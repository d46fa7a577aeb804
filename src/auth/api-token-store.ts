import { IsNull, type Repository } from 'typeorm';
import type { Caller } from '../common/http/request-context.js';
import type { ApiTokenEntity } from './api-token.entity.js';
import { hashSecret, hasSecretShape, lookupOf, newSalt, newSecret, sameHash, scryptHash, TOKEN_PREFIX } from './token-secret.js';

export interface TokenSummary {
  id: string;
  email: string;
  name: string | null;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/**
 * The api_tokens table, for the service and for the `npm run token` CLI alike. The secret leaves
 * `create` once and is never stored, returned or logged again.
 */
export class ApiTokenStore {
  /**
   * Tokens this process has already checked with scrypt: SHA-256 of the token → the row's scrypt
   * hash it matched. The row is still read on every request (a revoked or expired token is refused
   * at once); only the slow hash is skipped. In memory only, at most VERIFIED_MAX entries.
   */
  private readonly verified = new Map<string, string>();

  constructor(private readonly tokens: Repository<ApiTokenEntity>) {}

  async create(input: { email: string; name?: string | null; expiresAt?: Date | null }): Promise<{ token: string; summary: TokenSummary }> {
    const token = newSecret(TOKEN_PREFIX);
    const salt = newSalt();
    const row = await this.tokens.save(
      this.tokens.create({
        email: input.email.trim().toLowerCase(),
        name: input.name ?? null,
        tokenLookup: lookupOf(token),
        tokenSalt: salt,
        tokenHash: await scryptHash(token, salt),
        expiresAt: input.expiresAt ?? null,
      }),
    );
    return { token, summary: summaryOf(row) };
  }

  async list(): Promise<TokenSummary[]> {
    const rows = await this.tokens.find({ order: { createdAt: 'ASC', id: 'ASC' } });
    return rows.map(summaryOf);
  }

  /** True when a live token was revoked; revoking twice, or an unknown id, is false. */
  async revoke(id: string, now = new Date()): Promise<boolean> {
    const result = await this.tokens.update({ id, revokedAt: IsNull() }, { revokedAt: now });
    return (result.affected ?? 0) > 0;
  }

  /** The caller a secret stands for, or undefined for an unknown, revoked or expired one. */
  async verify(secret: string, now = new Date()): Promise<Caller | undefined> {
    if (!hasSecretShape(secret, TOKEN_PREFIX)) return undefined;
    const row = await this.tokens.findOneBy({ tokenLookup: lookupOf(secret) });
    if (!row || !(await this.matches(secret, row))) return undefined;
    if (row.revokedAt || (row.expiresAt && row.expiresAt.getTime() <= now.getTime())) return undefined;
    return { tokenId: row.id, email: row.email };
  }

  private async matches(secret: string, row: ApiTokenEntity): Promise<boolean> {
    const digest = hashSecret(secret);
    const known = this.verified.get(digest);
    if (known !== undefined && sameHash(known, row.tokenHash)) return true;
    if (!sameHash(await scryptHash(secret, row.tokenSalt), row.tokenHash)) return false;
    if (this.verified.size >= VERIFIED_MAX) this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(digest, row.tokenHash);
    return true;
  }

  /** Records when each token was last used: one UPDATE per token per flush, not per request. */
  async recordLastUsed(used: ReadonlyMap<string, Date>): Promise<void> {
    for (const [id, at] of used) await this.tokens.update({ id }, { lastUsedAt: at });
  }
}

/** Bound of the verified-token memory: far above the tokens one deployment hands out. */
const VERIFIED_MAX = 10_000;

function summaryOf(row: ApiTokenEntity): TokenSummary {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    lastUsedAt: row.lastUsedAt,
  };
}
