import { describe, expect, it } from 'vitest';
import { BODY_TOO_DEEP, bodyProblem, queryProblem } from './input-guard.js';

describe('input guard (pure checks)', () => {
  it('walks without recursion: 100,000 levels are refused, not a stack overflow', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
    expect(bodyProblem({ a: deep })).toBe(BODY_TOO_DEEP);
  });

  it('8 levels pass, 9 do not', () => {
    const nest = (levels: number): unknown => (levels === 1 ? {} : [nest(levels - 1)]);
    expect(bodyProblem(nest(8))).toBeUndefined();
    expect(bodyProblem(nest(9))).toBe(BODY_TOO_DEEP);
  });

  it('reports the first problem in document order, by path', () => {
    expect(bodyProblem({ a: 1, list: [{ x: 'ok' }, { x: 'b\u0000' }], z: '\ud800' })).toBe('list[1].x must not contain NUL characters');
    expect(bodyProblem({ n: Number.NEGATIVE_INFINITY })).toBe('n must be a finite number');
    expect(bodyProblem('text\u0000')).toBe('request body must not contain NUL characters');
    expect(bodyProblem({ email: 'a@b.co', ok: [1, true, null] })).toBeUndefined();
  });

  it('query: empty values except required names; names that are input are not repeated', () => {
    expect(queryProblem({ from: '' })).toBe('from must not be empty');
    expect(queryProblem({ email: '' }, new Set(['email']))).toBeUndefined();
    expect(queryProblem({ 'x y': '' })).toBe('a query parameter must not be empty');
    expect(queryProblem({ tag: ['a', '\ud800'] })).toBe('tag must be well-formed Unicode (no lone surrogates)');
  });
});
