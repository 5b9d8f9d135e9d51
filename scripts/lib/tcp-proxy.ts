import { connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Drops every connection through it and refuses new ones until `restore()`: the network to the target is gone. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/** A TCP pass-through on a free local port to `port` on this machine, for cutting one kind of traffic to it. */
export async function startTcpProxy(port: number): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let cut = false;
  const server = createServer((client) => {
    if (cut) return void client.destroy();
    const target = connect(port, '127.0.0.1');
    for (const [from, to] of [
      [client, target],
      [target, client],
    ] as const) {
      open.add(from);
      from.pipe(to);
      from.once('error', () => to.destroy());
      from.once('close', () => {
        open.delete(from);
        to.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    cut() {
      cut = true;
      for (const socket of open) socket.destroy();
    },
    restore() {
      cut = false;
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
