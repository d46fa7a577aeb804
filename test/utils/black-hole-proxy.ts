import net from 'node:net';

/** One client connection through the proxy, with the first line of its HTTP request. */
export interface ProxiedConnection {
  /** `GET /ws.okx.com/ws/v5/public HTTP/1.1`: a websocket's path names the venue host it stands for. */
  requestLine: string;
  /** Whether the request asked for a websocket upgrade. */
  websocket: boolean;
  /** When the proxy accepted it (Date.now()). */
  readonly openedAt: number;
  /** Whether it is black-holed: no byte is forwarded either way, and both sockets stay open. */
  blackHoled: boolean;
  /** Whether the client's side is still open. */
  open: boolean;
}

export interface BlackHoleProxy {
  /** `http://127.0.0.1:<port>`: give it to the service as the simulator's address. */
  readonly url: string;
  readonly connections: readonly ProxiedConnection[];
  /**
   * Stops forwarding both ways on every open connection `match` selects, as a dropped NAT entry
   * does: bytes stop, neither side sees a close. Answers those connections.
   */
  blackHole(match: (c: ProxiedConnection) => boolean): ProxiedConnection[];
  close(): Promise<void>;
}

const HEAD_END = '\r\n\r\n';
/** A request head longer than this is forwarded as it is, unparsed. */
const MAX_HEAD = 16_384;

/**
 * A TCP proxy in front of a server (the exchange simulator) that can turn any of its
 * connections into a dead network path: once black-holed, what either side sends is read and
 * dropped, and neither socket is closed or ended by the proxy (a FIN is dropped too), so only a
 * client that watches for silence notices. Sockets are destroyed when the proxy closes.
 */
export async function startBlackHoleProxy(target: string): Promise<BlackHoleProxy> {
  const upstream = new URL(target);
  const connections: ProxiedConnection[] = [];
  const sockets = new Set<net.Socket>();

  const server = net.createServer((client) => {
    const server = net.connect(Number(upstream.port), upstream.hostname);
    sockets.add(client).add(server);
    const entry: ProxiedConnection = { requestLine: '', websocket: false, openedAt: Date.now(), blackHoled: false, open: true };
    let head = '';
    let parsed = false;
    const settle = (): void => {
      if (parsed) return;
      parsed = true;
      entry.requestLine = head.split('\r\n', 1)[0] ?? '';
      entry.websocket = /^upgrade:\s*websocket\s*$/im.test(head);
      connections.push(entry);
    };
    client.on('data', (chunk: Buffer) => {
      if (!parsed) {
        head += chunk.toString('latin1');
        if (head.includes(HEAD_END) || head.length > MAX_HEAD) settle();
      }
      if (!entry.blackHoled) server.write(chunk);
    });
    server.on('data', (chunk: Buffer) => {
      if (!entry.blackHoled) client.write(chunk);
    });
    const end = (from: net.Socket, to: net.Socket) => () => {
      if (from === client) entry.open = false;
      if (!entry.blackHoled) to.destroy();
    };
    client.on('close', end(client, server));
    server.on('close', end(server, client));
    client.on('error', () => undefined);
    server.on('error', () => undefined);
    for (const s of [client, server]) s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    connections,
    blackHole(match) {
      const hit = connections.filter((c) => c.open && !c.blackHoled && match(c));
      for (const c of hit) c.blackHoled = true;
      return hit;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
