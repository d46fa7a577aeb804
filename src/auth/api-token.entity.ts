import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A bearer token, kept only as a salted scrypt hash and a lookup prefix (the migration says why); bound to one e-mail. */
@Entity({ name: 'api_tokens' })
export class ApiTokenEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Lower case: e-mails compare without regard to case. */
  @Column({ type: 'text' })
  email: string;

  @Column({ type: 'text', nullable: true })
  name: string | null;

  /** The token's first 12 characters after `amt_`, to find its row. */
  @Column({ name: 'token_lookup', type: 'text' })
  tokenLookup: string;

  /** 16 random bytes, hex. */
  @Column({ name: 'token_salt', type: 'text' })
  tokenSalt: string;

  /** scrypt(token, salt), hex. */
  @Column({ name: 'token_hash', type: 'text' })
  tokenHash: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;
}
