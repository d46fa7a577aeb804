import { describe, expect, it } from 'vitest';
import { cleanText, errorFields, JsonLogger } from './json-logger.js';

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

  it('never writes a stack: not an Error as the message, not a stack field, not Nest\'s (message, stack, context) (rules: logs)', () => {
    const { logger, lines } = capture('info');
    const thrown = new Error('open /srv/app/data/pglite/PG_VERSION failed');
    logger.error(thrown, 'Svc');
    logger.error({ msg: 'unexpected error', error: { name: 'Error', message: 'x', stack: thrown.stack } }, 'Exceptions');
    logger.error('boot failed', 'Error: x\n    at y (/srv/app/dist/main.js:1:1)', 'NestApplication');
    const records = lines.map((l) => JSON.parse(l));
    expect(records[0]).toMatchObject({ msg: 'open <path> failed', error: { name: 'Error', message: 'open <path> failed' } });
    expect(records[1].error).toEqual({ name: 'Error', message: 'x' });
    expect(records[2]).toMatchObject({ msg: 'boot failed', context: 'NestApplication' });
    expect(lines.join('')).not.toMatch(/\bat |\/srv\/app|stack/);
  });

  it('errorFields keeps class and message, paths out, length bounded; a URL keeps its host', () => {
    expect(errorFields(new TypeError('bad'))).toEqual({ name: 'TypeError', message: 'bad' });
    expect(errorFields('ENOENT: no such file, open \'C:/Users/op/app/x.json\'')).toBe("ENOENT: no such file, open '<path>'");
    expect(errorFields(new Error('connect ECONNREFUSED 127.0.0.1:6379'))).toEqual({ name: 'Error', message: 'connect ECONNREFUSED 127.0.0.1:6379' });
    expect(cleanText('GET http://127.0.0.1:8080/v1 failed')).toBe('GET http://127.0.0.1:8080/v1 failed');
    expect(cleanText('GET https://api.binance.com/api/v3/ticker/24hr 418')).toBe('GET https://api.binance.com/api/v3/ticker/24hr 418');
    expect(cleanText('at (/srv/app/x.js:1:2) and "/home/op/.env"')).toBe('at (<path>:1:2) and "<path>"');
    const long = errorFields('x'.repeat(1000));
    expect(typeof long === 'string' && long.length).toBe(301);
  });
});
