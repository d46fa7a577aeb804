import { isIPv4, isIPv6 } from 'node:net';

/**
 * Why an address is not a public one (rules: outbound-targets). An alert target is any URL a user
 * typed; without this the service would post to, and report the answers of, the trader's own
 * network or a cloud metadata service.
 */
export type AddressClass =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'carrier-grade NAT'
  | 'multicast'
  | 'unspecified'
  | 'broadcast'
  | 'unique-local'
  | 'documentation'
  | 'benchmarking'
  | 'reserved';

interface Range {
  prefix: readonly number[];
  bits: number;
  class: AddressClass;
}

const v4 = (cidr: string, cls: AddressClass): Range => {
  const [address, bits] = cidr.split('/');
  return { prefix: address.split('.').map(Number), bits: Number(bits), class: cls };
};

const v6 = (cidr: string, cls: AddressClass): Range => {
  const [address, bits] = cidr.split('/');
  return { prefix: [...(ipv6Bytes(address) ?? [])], bits: Number(bits), class: cls };
};

/** First match wins: broadcast before the 240/4 block that holds it. */
const IPV4_RANGES: readonly Range[] = [
  v4('0.0.0.0/8', 'unspecified'),
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'carrier-grade NAT'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'reserved'),
  v4('192.0.2.0/24', 'documentation'),
  v4('192.88.99.0/24', 'reserved'),
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'benchmarking'),
  v4('198.51.100.0/24', 'documentation'),
  v4('203.0.113.0/24', 'documentation'),
  v4('224.0.0.0/4', 'multicast'),
  v4('255.255.255.255/32', 'broadcast'),
  v4('240.0.0.0/4', 'reserved'),
];

/**
 * Ranges that carry an IPv4 address inside (bytes `at` to `at + 4`): the embedded address is what a
 * packet finally reaches (the kernel for a mapped one, a NAT64 or 6to4 gateway for the others), so
 * it is judged instead.
 */
const IPV6_EMBEDDING: readonly (Range & { at: number })[] = [
  { ...v6('::ffff:0:0/96', 'reserved'), at: 12 },
  { ...v6('64:ff9b::/96', 'reserved'), at: 12 },
  { ...v6('2002::/16', 'reserved'), at: 2 },
];

const IPV6_RANGES: readonly Range[] = [
  v6('::/128', 'unspecified'),
  v6('::1/128', 'loopback'),
  v6('64:ff9b:1::/48', 'private'),
  v6('2001::/32', 'reserved'),
  v6('2001:2::/48', 'benchmarking'),
  v6('2001:db8::/32', 'documentation'),
  v6('3fff::/20', 'documentation'),
  v6('fc00::/7', 'unique-local'),
  v6('fe80::/10', 'link-local'),
  v6('fec0::/10', 'private'),
  v6('ff00::/8', 'multicast'),
];

/** Only 2000::/3 is handed out as global unicast; the rest of the IPv6 space is not a public target. */
const IPV6_GLOBAL: Range = v6('2000::/3', 'reserved');

/**
 * The class of a literal IPv4 or IPv6 address, or null when it is public. A zone (`fe80::1%eth0`)
 * is ignored; anything that is not an address is `reserved` (never a public target).
 */
export function addressClass(address: string): AddressClass | null {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const four = ipv4Bytes(bare);
  if (four) return match(four, IPV4_RANGES);
  const six = ipv6Bytes(bare);
  if (!six) return 'reserved';
  for (const range of IPV6_EMBEDDING) {
    if (inRange(six, range)) return match(six.slice(range.at, range.at + 4), IPV4_RANGES);
  }
  const special = match(six, IPV6_RANGES);
  if (special !== null) return special;
  return inRange(six, IPV6_GLOBAL) ? null : 'reserved';
}

function match(bytes: readonly number[], ranges: readonly Range[]): AddressClass | null {
  return ranges.find((range) => inRange(bytes, range))?.class ?? null;
}

function inRange(bytes: readonly number[], range: Range): boolean {
  if (bytes.length !== (range.prefix.length === 4 ? 4 : 16)) return false;
  let left = range.bits;
  for (let i = 0; left > 0; i++, left -= 8) {
    const mask = left >= 8 ? 0xff : (0xff << (8 - left)) & 0xff;
    if ((bytes[i] & mask) !== (range.prefix[i] & mask)) return false;
  }
  return true;
}

function ipv4Bytes(address: string): number[] | null {
  return isIPv4(address) ? address.split('.').map(Number) : null;
}

/** The 16 bytes of an IPv6 address, `::` expanded and a trailing dotted IPv4 read as its last 4. */
function ipv6Bytes(address: string): number[] | null {
  if (!isIPv6(address)) return null;
  let text = address;
  const dotted = /:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, dotted.index)}:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const words = (part: string): number[] => (part === '' ? [] : part.split(':').map((w) => parseInt(w, 16)));
  const front = words(head);
  const back = tail === null ? [] : words(tail);
  const all = [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  return all.flatMap((w) => [w >> 8, w & 0xff]);
}
