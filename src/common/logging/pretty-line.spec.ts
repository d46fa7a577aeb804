import { describe, expect, it } from 'vitest';
import { JsonLogger } from './json-logger.js';
import { runWithRequestId } from './log-context.js';

// eslint-disable-next-line no-control-regex
const plain = (text: string): string => text.replace(/\u001b\[\d+m/g, '');

describe('log formats (LOG_FORMAT)', () => {
  const capture = (format: 'auto' | 'json' | 'pretty', isTty: boolean) => {
    const lines: string[] = [];
    return { logger: new JsonLogger('debug', (line) => lines.push(line), format, isTty), lines };
  };

  it('auto: pretty at a terminal, JSON lines otherwise; an explicit format wins', () => {
    const tty = capture('auto', true);
    tty.logger.log('hello', 'Main');
    expect(() => JSON.parse(tty.lines[0] ?? '')).toThrow();
    const pipe = capture('auto', false);
    pipe.logger.log('hello', 'Main');
    expect(JSON.parse(pipe.lines[0] ?? '')).toMatchObject({ msg: 'hello', context: 'Main' });
    const forced = capture('json', true);
    forced.logger.log('hello');
    expect(JSON.parse(forced.lines[0] ?? '')).toMatchObject({ msg: 'hello' });
  });

  it('pretty: one coloured line per request, with its id last', () => {
    const { logger, lines } = capture('pretty', false);
    logger.log({ msg: 'request', requestId: 'r-7', method: 'GET', path: '/v1/lookers', status: 404, ms: 3.1 }, 'Http');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('\u001b[33m404'); // 4xx in yellow
    expect(plain(lines[0] ?? '')).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}\[Http\] GET \/v1\/lookers 404 3\.1 ms req=r-7\n$/);
  });

  it('pretty: an error shows its message, never its stack, on one line; fields as key=value', () => {
    const { logger, lines } = capture('pretty', false);
    const error = new Error('db down');
    logger.error({ msg: 'unexpected error', path: '/x', error: { name: error.name, message: error.message, stack: error.stack } }, 'Exceptions');
    const text = plain(lines.join(''));
    expect(text).toMatch(/^\d\d:\d\d:\d\d\.\d{3} ERROR \[Exceptions\] unexpected error: db down path=\/x\n$/);
  });

  it('every line written inside a request carries its id, in both formats', () => {
    const json = capture('json', false);
    runWithRequestId('abc-1', () => json.logger.warn({ msg: 'inside' }, 'Svc'));
    json.logger.warn({ msg: 'outside' }, 'Svc');
    expect(json.lines.map((l) => JSON.parse(l).requestId)).toEqual(['abc-1', undefined]);
    const pretty = capture('pretty', false);
    runWithRequestId('abc-2', () => pretty.logger.debug('inside'));
    expect(plain(pretty.lines[0] ?? '')).toMatch(/inside req=abc-2\n$/);
  });

  it("Nest's error(message, stack, context) drops the stack; an Error as the message keeps class and message", () => {
    const { logger, lines } = capture('json', false);
    logger.error('boot failed', 'Error: x\n    at y', 'NestApplication');
    logger.error(new Error('thrown'), 'Svc');
    expect(JSON.parse(lines[0] ?? '')).toEqual(expect.objectContaining({ msg: 'boot failed', context: 'NestApplication' }));
    expect(JSON.parse(lines[0] ?? '').error).toBeUndefined();
    expect(JSON.parse(lines[1] ?? '').error).toEqual({ name: 'Error', message: 'thrown' });
  });
});
