import { connect, createServer, type Socket } from 'node:net';

export interface Balancer {
  port: number;
  /** Adds a replica listening on `port` of this machine; it gets connections once its `/readyz` answers 2xx. */
  add(port: number): void;
  /** Whether the balancer last saw the replica on `port` ready. */
  ready(port: number): boolean;
  /** How many connections went to the replica on `port`. */
  connections(port: number): number;
  close(): Promise<void>;
}

/**
 * A TCP balancer on a free local port that does what kube-proxy does with a Service's endpoints: each new connection
 * goes to one of the replicas whose readiness was 2xx at the last poll (round robin); a connection already open stays
 * where it is. With no replica ready, a connection is refused.
 */
export async function startBalancer({ pollMs = 150 } = {}): Promise<Balancer> {
  const replicas = new Map<number, { ready: boolean; connections: number }>();
  const sockets = new Set<Socket>();
  let turn = 0;
  let polling = true;

  const check = async (port: number) =>
    fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(5000) }).then(
      async (response) => {
        await response.body?.cancel();
        return response.ok;
      },
      () => false,
    );
  const poll = (async () => {
    while (polling) {
      const ports = [...replicas.keys()];
      const states = await Promise.all(ports.map(check));
      ports.forEach((port, i) => (replicas.get(port)!.ready = states[i]!));
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  })();

  const server = createServer((client) => {
    const ready = [...replicas].filter(([, replica]) => replica.ready);
    if (ready.length === 0) return void client.destroy();
    const [port, replica] = ready[turn++ % ready.length]!;
    replica.connections++;
    const target = connect(port, '127.0.0.1');
    for (const socket of [client, target]) {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    }
    // Each side's end is passed on by `pipe`; an error on either cuts both.
    client.pipe(target);
    target.pipe(client);
    client.once('error', () => target.destroy());
    target.once('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    port: (server.address() as { port: number }).port,
    add: (port) => void replicas.set(port, { ready: false, connections: 0 }),
    ready: (port) => replicas.get(port)?.ready ?? false,
    connections: (port) => replicas.get(port)?.connections ?? 0,
    async close() {
      polling = false;
      await poll;
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
