import { describe, expect, it } from 'vitest';
import { statementOf } from './typeorm-logger.js';

describe('statementOf (rules: logs)', () => {
  it('names the verb and the first table, never the text or its literals', () => {
    expect(statementOf('SELECT "o"."id" FROM "journal_operations" "o" WHERE "o"."email" = $1')).toBe('SELECT journal_operations');
    expect(statementOf(`INSERT INTO market_samples_p20260110 (ts, bid) VALUES (1, 'secret')`)).toBe('INSERT market_samples_p20260110');
    expect(statementOf('update "alerts_outbox" set x = 1')).toBe('UPDATE alerts_outbox');
    expect(statementOf('  vacuum analyze')).toBe('VACUUM');
    expect(statementOf('')).toBe('SQL');
  });
});
