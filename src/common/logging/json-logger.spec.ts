import { describe, expect, it } from 'vitest';
import { JsonLogger } from './json-logger.js';

describe('JsonLogger', () => {
  const capture = (level: 'debug' | 'info' | 'warn' | 'error' | 'silent') => {
    const lines: string[] = [];
    return { logger: new JsonLogger(level, (line) => lines.push(line)), lines };
  };

  it('writes one JSON object per line with level, time, context and fields', () => {
    const { logger, lines } = capture('info');
    logger.log({ msg: 'request', requestId: 'r-1', status: 200 }, 'Http');
    logger.error('boom', 'Exceptions');
    expect(lines).toHaveLength(2);
    const first = JSON.parse(lines[0] ?? '');
    expect(first).toMatchObject({ level: 'info', context: 'Http', msg: 'request', requestId: 'r-1', status: 200 });
    expect(new Date(first.time).toString()).not.toBe('Invalid Date');
    expect(JSON.parse(lines[1] ?? '')).toMatchObject({ level: 'error', context: 'Exceptions', msg: 'boom' });
    expect(lines.every((l) => l.endsWith('\n') && !l.slice(0, -1).includes('\n'))).toBe(true);
  });

  it('drops messages below the configured level; silent drops all', () => {
    const warn = capture('warn');
    warn.logger.debug('d');
    warn.logger.log('i');
    warn.logger.warn('w');
    expect(warn.lines.map((l) => JSON.parse(l).msg)).toEqual(['w']);
    const silent = capture('silent');
    silent.logger.error('e');
    expect(silent.lines).toEqual([]);
  });
});
