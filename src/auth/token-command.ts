import { parseArgs } from 'node:util';
import type { ApiTokenStore, TokenSummary } from './api-token-store.js';

export const TOKEN_USAGE = [
  'usage: npm run token -- create --email <email> [--name <label>] [--expires <n>d|<n>h]',
  '       npm run token -- list',
  '       npm run token -- revoke <id>',
].join('\n');

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DURATION = /^([1-9]\d{0,4})([dh])$/;

/**
 * The operator's token commands. `create` prints the token once, on its own line, and nothing
 * else ever shows it again (the table keeps its hash); `list` and `revoke` work by id.
 * Returns the exit code; `out` is stdout, `err` stderr.
 */
export async function tokenCommand(argv: string[], store: ApiTokenStore, out: (line: string) => void, err: (line: string) => void, now = new Date()): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'create':
      return create(rest, store, out, err, now);
    case 'list':
      for (const line of (await store.list()).map((t) => describeToken(t, now))) out(line);
      return 0;
    case 'revoke': {
      const [id] = rest;
      if (!id || !/^[0-9a-f-]{36}$/i.test(id)) return fail(err, 'revoke needs the id `list` shows');
      if (!(await store.revoke(id.toLowerCase(), now))) return fail(err, `no live token has id ${id}`);
      out(`revoked ${id}`);
      return 0;
    }
    default:
      return fail(err, TOKEN_USAGE);
  }
}

async function create(args: string[], store: ApiTokenStore, out: (line: string) => void, err: (line: string) => void, now: Date): Promise<number> {
  let values: { email?: string; name?: string; expires?: string };
  try {
    ({ values } = parseArgs({ args, options: { email: { type: 'string' }, name: { type: 'string' }, expires: { type: 'string' } }, strict: true }));
  } catch (error) {
    return fail(err, `${(error as Error).message}\n${TOKEN_USAGE}`);
  }
  if (!values.email || !EMAIL.test(values.email.trim())) return fail(err, '--email must be an e-mail address');
  let expiresAt: Date | null = null;
  if (values.expires !== undefined) {
    const duration = DURATION.exec(values.expires);
    if (!duration) return fail(err, '--expires must be a number of days or hours, such as 90d or 12h');
    expiresAt = new Date(now.getTime() + Number(duration[1]) * (duration[2] === 'd' ? 86_400_000 : 3_600_000));
  }
  const { token, summary } = await store.create({ email: values.email, name: values.name ?? null, expiresAt });
  out(token);
  err(`created ${describeToken(summary, now)}`);
  err('The token is shown this once; store it now (only its hash is kept).');
  return 0;
}

function describeToken(t: TokenSummary, now: Date): string {
  const state = t.revokedAt ? `revoked ${t.revokedAt.toISOString()}` : t.expiresAt && t.expiresAt <= now ? 'expired' : 'live';
  return [
    t.id,
    t.email,
    t.name ?? '-',
    state,
    `created ${t.createdAt.toISOString()}`,
    `expires ${t.expiresAt?.toISOString() ?? 'never'}`,
    `last used ${t.lastUsedAt?.toISOString() ?? 'never'}`,
  ].join('  ');
}

function fail(err: (line: string) => void, message: string): number {
  err(message);
  return 1;
}
