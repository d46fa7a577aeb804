import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** iproute2's `ip`: sbin is not on every PATH (a plain user's, a CI runner's). */
const IP = ['/usr/sbin/ip', '/sbin/ip', '/usr/bin/ip', '/bin/ip'].find((p) => existsSync(p));

/**
 * A network namespace joined to this one by a veth pair: a second machine on a private LAN. A
 * service run inside it (`exec` before its command) listens on `address`, an address the browser
 * reaches as it would a LAN box or a VPS, not as loopback.
 */
export interface LanNamespace {
  readonly name: string;
  /** The namespace's address (10.199.a.b+2): where a service run inside it listens. */
  readonly address: string;
  /** This machine's end of the link (10.199.a.b+1): where a server the namespace reaches listens. */
  readonly hostAddress: string;
  /** Runs a command inside the namespace: `ip netns exec <name>`, which then execs the command. */
  readonly exec: readonly string[];
  /** Deletes the namespace and its link; stop what runs inside it first. */
  remove(): Promise<void>;
}

async function ip(...args: string[]): Promise<string> {
  if (!IP) {
    throw new Error('`ip` is missing: install iproute2 (apt-get install iproute2; .ci/run does). This test makes a network namespace with it.');
  }
  try {
    return (await execFileAsync(IP, args)).stdout;
  } catch (err) {
    const stderr = typeof err === 'object' && err !== null && 'stderr' in err ? String(err.stderr).trim() : String(err);
    throw new Error(`ip ${args.join(' ')} failed: ${stderr} (making a network namespace needs root, or CAP_NET_ADMIN and CAP_SYS_ADMIN)`, { cause: err });
  }
}

/**
 * Makes the namespace with a /30 link: 10.199.a.b+1 here, 10.199.a.b+2 inside, a subnet unused on
 * this machine. With `nameserverHere`, a process run through `exec` resolves names with a DNS server at
 * `hostAddress` port 53 (its resolv.conf, which `ip netns exec` mounts from /etc/netns/<name>/).
 */
export async function createLanNamespace(options: { nameserverHere?: boolean } = {}): Promise<LanNamespace> {
  // A /30 of 10.199.0.0/16 chosen by process id: test files running side by side get different ones.
  const used = await ip('-4', '-o', 'addr', 'show');
  const free = Array.from({ length: 16_384 }, (_, i) => (process.pid + i) % 16_384)
    .map((k) => [k >> 6, (k & 63) * 4] as const)
    .find(([c, d]) => !used.includes(` 10.199.${c}.${d + 1}/`));
  if (free === undefined) throw new Error('no free /30 in 10.199.0.0/16 on this machine for a test network namespace');
  const [c, d] = free;
  const name = `am-lan-${process.pid}`;
  // Interface names are at most 15 characters.
  const outer = `amh${process.pid}`;
  const inner = `amn${process.pid}`;
  const hostAddress = `10.199.${c}.${d + 1}`;
  const address = `10.199.${c}.${d + 2}`;
  const etc = `/etc/netns/${name}`;
  await ip('netns', 'add', name);
  const lan: LanNamespace = {
    name,
    address,
    hostAddress,
    exec: [IP ?? 'ip', 'netns', 'exec', name],
    remove: async () => {
      // Deleting the namespace deletes the inner end of the pair, and with it the outer one.
      await ip('netns', 'del', name);
      rmSync(etc, { recursive: true, force: true });
      if ((await ip('-o', 'link', 'show')).includes(` ${outer}@`)) await ip('link', 'del', outer);
    },
  };
  try {
    await ip('link', 'add', outer, 'type', 'veth', 'peer', 'name', inner, 'netns', name);
    await ip('addr', 'add', `${hostAddress}/30`, 'dev', outer);
    await ip('link', 'set', outer, 'up');
    await ip('-n', name, 'addr', 'add', `${address}/30`, 'dev', inner);
    await ip('-n', name, 'link', 'set', inner, 'up');
    await ip('-n', name, 'link', 'set', 'lo', 'up');
    if (options.nameserverHere) {
      mkdirSync(etc, { recursive: true });
      writeFileSync(path.join(etc, 'resolv.conf'), `nameserver ${hostAddress}\noptions attempts:1 timeout:2\n`);
    }
  } catch (err) {
    await lan.remove().catch(() => undefined);
    throw err;
  }
  return lan;
}
