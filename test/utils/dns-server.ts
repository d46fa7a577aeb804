import { createSocket } from 'node:dgram';
import { isIP } from 'node:net';

/**
 * A DNS server the test answers from, over UDP: A and AAAA records of the names in `names` (lower
 * case, no trailing dot), no record of another type, NXDOMAIN for any other name. Enough for the
 * system resolver (getaddrinfo) of a process whose resolv.conf names it.
 */
export interface DnsServer {
  readonly names: Map<string, string[]>;
  /** Every name asked, in order. */
  readonly asked: string[];
  close(): Promise<void>;
}

const A = 1;
const AAAA = 28;

export async function startDnsServer(address: string, port = 53): Promise<DnsServer> {
  const names = new Map<string, string[]>();
  const asked: string[] = [];
  const socket = createSocket(isIP(address) === 6 ? 'udp6' : 'udp4');
  socket.on('message', (query, peer) => {
    const answer = answerTo(query, names, asked);
    if (answer) socket.send(answer, peer.port, peer.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, address, () => resolve());
  });
  return { names, asked, close: () => new Promise<void>((resolve) => socket.close(() => resolve())) };
}

function answerTo(query: Buffer, names: Map<string, string[]>, asked: string[]): Buffer | null {
  if (query.length < 12 || query.readUInt16BE(4) !== 1) return null;
  const labels: string[] = [];
  let at = 12;
  while (at < query.length && query[at] !== 0) {
    labels.push(query.subarray(at + 1, at + 1 + query[at]).toString('latin1'));
    at += 1 + query[at];
  }
  const questionEnd = at + 5;
  if (questionEnd > query.length) return null;
  const type = query.readUInt16BE(at + 1);
  const name = labels.join('.').toLowerCase();
  asked.push(name);
  const addresses = names.get(name);
  const records = (addresses ?? []).filter((a) => (type === A && isIP(a) === 4) || (type === AAAA && isIP(a) === 6));
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0);
  // QR, AA, the query's RD, RA; NXDOMAIN for a name it does not hold.
  header.writeUInt16BE(0x8480 | (query.readUInt16BE(2) & 0x0100) | (addresses ? 0 : 3), 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records.length, 6);
  const answers = records.map((a) => {
    const data = isIP(a) === 4 ? Buffer.from(a.split('.').map(Number)) : ipv6Bytes(a);
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
    rr.writeUInt16BE(type, 2);
    rr.writeUInt16BE(1, 4); // IN
    rr.writeUInt32BE(0, 6); // TTL 0: asked again each time
    rr.writeUInt16BE(data.length, 10);
    return Buffer.concat([rr, data]);
  });
  return Buffer.concat([header, query.subarray(12, questionEnd), ...answers]);
}

/** The 16 bytes of an IPv6 address, a dotted IPv4 tail (::ffff:127.0.0.1) included. */
function ipv6Bytes(address: string): Buffer {
  let text = address;
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number);
    text = `${address.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const words = rest === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  const bytes = Buffer.alloc(16);
  words.forEach((w, i) => bytes.writeUInt16BE(parseInt(w, 16), i * 2));
  return bytes;
}
