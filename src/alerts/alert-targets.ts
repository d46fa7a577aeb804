import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { AppError } from '../common/errors/app-error.js';
import type { AlertsConfig, HostResolver, ResolvedAddress } from '../config/alerts-config.js';
import type { AlertChannel } from './alert-rule.types.js';
import { addressClass } from './outbound-target.engine.js';

/** How alert targets are judged (rules: outbound-targets): the switch and the resolver. */
export interface TargetPolicy {
  allowPrivate: boolean;
  resolve: HostResolver;
}

/**
 * A target judged: the addresses to connect to (the only ones the request may use), a refusal
 * with its reason, or a name that did not resolve.
 */
export type TargetVerdict =
  | { ok: true; addresses: ResolvedAddress[] }
  | { ok: false; kind: 'blocked'; reason: string }
  | { ok: false; kind: 'dns'; error: string };

export const PRIVATE_HINT = 'alert targets must be public (ALERT_TARGETS_ALLOW_PRIVATE=1 allows private ones)';
export const HTTPS_REASON = 'must be an https URL (http only with ALERT_TARGETS_ALLOW_PRIVATE=1)';

/** The operating system's resolver (hosts file included), every address, in its own order. */
export const systemResolver: HostResolver = async (host) => {
  const found = await lookup(host, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export function targetPolicy(config: AlertsConfig): TargetPolicy {
  return { allowPrivate: config.allowPrivateTargets, resolve: config.resolveHost ?? systemResolver };
}

/**
 * Resolves the URL's host and judges EVERY address (rules: outbound-targets): one non-public
 * address refuses the target, since the connection could go to any of them. A resolver failure
 * is a `dns` verdict by kind only; the caller decides what a name that does not resolve means.
 */
export async function judgeTarget(url: URL, policy: TargetPolicy): Promise<TargetVerdict> {
  if (url.protocol !== 'https:' && !policy.allowPrivate) return { ok: false, kind: 'blocked', reason: HTTPS_REASON };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: ResolvedAddress[];
  if (isIP(host) !== 0) {
    addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await policy.resolve(host);
    } catch (err) {
      return { ok: false, kind: 'dns', error: dnsError(err) };
    }
    if (addresses.length === 0) return { ok: false, kind: 'dns', error: 'DNS: not found' };
  }
  if (policy.allowPrivate) return { ok: true, addresses };
  for (const { address } of addresses) {
    const cls = addressClass(address);
    if (cls !== null) return { ok: false, kind: 'blocked', reason: `resolves to ${address}, ${article(cls)} ${cls} address: ${PRIVATE_HINT}` };
  }
  return { ok: true, addresses };
}

/** The 400 texts of a refused channel target, documented with the controller's other texts. */
export const TARGET_MESSAGES = {
  url: [`channel.url ${HTTPS_REASON}`, `channel.url resolves to <address>, a <class> address: ${PRIVATE_HINT}`],
  webhookUrl: [`channel.webhookUrl ${HTTPS_REASON}`, `channel.webhookUrl resolves to <address>, a <class> address: ${PRIVATE_HINT}`],
} as const;

/**
 * Refuses, at save time, a webhook or Discord URL that is not https or resolves to a non-public
 * address (rules: outbound-targets), naming the field and the address. A name that does not
 * resolve now is accepted: it is judged again before every send, where it shows as `DNS: not found`.
 * Telegram's base is configuration, judged at start (scheme) and at send.
 */
export async function assertChannelTarget(channel: AlertChannel, policy: TargetPolicy): Promise<void> {
  const target = channel.type === 'webhook' ? { field: 'channel.url', url: channel.url } : channel.type === 'discord' ? { field: 'channel.webhookUrl', url: channel.webhookUrl } : null;
  // With private targets allowed there is nothing to judge, and nothing worth a DNS query.
  if (target === null || policy.allowPrivate) return;
  const verdict = await judgeTarget(new URL(target.url), policy);
  if (!verdict.ok && verdict.kind === 'blocked') throw AppError.invalid(`${target.field} ${verdict.reason}`);
}

function article(word: string): string {
  return /^([aeio]|un[^i])/.test(word) ? 'an' : 'a';
}

/** A resolver failure by kind only; its message could name the host, which may carry a token. */
function dnsError(err: unknown): string {
  const code = typeof err === 'object' && err !== null && 'code' in err ? err.code : undefined;
  return code === 'EAI_AGAIN' || code === 'ETIMEOUT' ? 'DNS: no answer' : 'DNS: not found';
}
