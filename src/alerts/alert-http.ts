import http from 'node:http';
import https from 'node:https';
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from '../config/alerts-config.js';
import { parseRetryAfter } from './alert-backoff.engine.js';
import { type ChannelRequest, type DeliveryOutcome, readOutcome } from './alert-channels.js';
import { judgeTarget, type TargetPolicy } from './alert-targets.js';

/** Sends one channel request; never throws. */
export type AlertHttp = (request: ChannelRequest, now: number) => Promise<DeliveryOutcome>;

const TIMEOUT_MS = 10_000;
/** Only a refusal's JSON (for its retry_after) is read; bigger answers are not parsed. */
const MAX_READ_CHARS = 16_384;

interface Answer {
  status: number;
  retryAfter: string | null;
  text: string;
}

/**
 * One POST within 10 s, resolution included (rules: outbound-targets). The host is resolved and
 * judged right before the request, and the connection may use only the addresses judged: a DNS
 * answer that changes in between cannot move it elsewhere. A refused target makes no connection.
 * Redirects are never followed: the 3xx is the answer. A failure is reported by its kind only,
 * never with the URL (for Telegram and Discord it holds the token) nor the receiver's answer.
 */
export function guardedAlertHttp(policy: TargetPolicy): AlertHttp {
  return async (request, now) => {
    const signal = AbortSignal.timeout(TIMEOUT_MS);
    try {
      const url = new URL(request.url);
      const verdict = await beforeAbort(judgeTarget(url, policy), signal);
      if (!verdict.ok) {
        return verdict.kind === 'blocked'
          ? { ok: false, blocked: true, error: `blocked: target ${verdict.reason}` }
          : { ok: false, error: verdict.error, retryAfterMs: null };
      }
      const answer = await post(url, request, verdict.addresses, signal);
      return readOutcome(answer.status, parseRetryAfter(answer.retryAfter, now), parseJson(answer.text));
    } catch (err) {
      return { ok: false, error: signal.aborted ? 'timed out' : networkError(err), retryAfterMs: null };
    }
  };
}

function post(url: URL, request: ChannelRequest, addresses: readonly ResolvedAddress[], signal: AbortSignal): Promise<Answer> {
  const send = url.protocol === 'https:' ? https.request : http.request;
  return new Promise<Answer>((resolve, reject) => {
    // No agent: a pooled socket would skip this request's lookup; each delivery connects to what it judged.
    const req = send(url, {
      method: 'POST',
      headers: { ...request.headers, 'Content-Length': String(Buffer.byteLength(request.body)) },
      agent: false,
      lookup: pinnedLookup(addresses),
      signal,
    }, (res) => {
      const status = res.statusCode ?? 0;
      const header = res.headers['retry-after'];
      const retryAfter = typeof header === 'string' ? header : null;
      if (status >= 200 && status < 300) {
        res.destroy();
        resolve({ status, retryAfter, text: '' });
        return;
      }
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (text.length < MAX_READ_CHARS) return;
        res.destroy();
        resolve({ status, retryAfter, text: '' });
      });
      res.on('end', () => resolve({ status, retryAfter, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(request.body);
  });
}

/**
 * A resolver that answers only the addresses already judged, whatever name it is asked: the
 * connection goes to them while the Host header and TLS server name stay the URL's host.
 */
function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_host: string, options: LookupOptions, callback) => {
    const family = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
    const usable: LookupAddress[] = addresses.filter((a) => family === 0 || a.family === family).map((a) => ({ address: a.address, family: a.family }));
    const first = usable[0];
    if (!first) {
      callback(Object.assign(new Error('no judged address of that family'), { code: 'ENOTFOUND' }), '', 0);
      return;
    }
    if (options.all) callback(null, usable);
    else callback(null, first.address, first.family);
  };
}

function beforeAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = (): void => reject(new Error('aborted'));
    signal.addEventListener('abort', abort, { once: true });
    void work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

/** The kind of a network failure, from its code; anything else is named by a code-shaped code only. */
function networkError(err: unknown): string {
  const code = typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : '';
  switch (code) {
    case 'ECONNREFUSED':
      return 'refused';
    case 'ETIMEDOUT':
      return 'timed out';
    case 'ENOTFOUND':
      return 'DNS: not found';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'connection reset';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'unreachable';
    default:
      return /^[A-Z_]{2,40}$/.test(code) ? `connection failed (${code})` : 'connection failed';
  }
}
