import { createServer, type RequestListener, type Server } from 'node:http';
import type Koa from 'koa';

/**
 * Connections the kernel keeps waiting to be accepted. Node's default (511) overflows when a crowd connects at once
 * (an on-sale opening, or the gateway opening a connection for each request it has in flight): the overflow's SYNs
 * are dropped and sent again after 1, 3, 7… s, so buyers wait seconds while every process idles. The kernel caps it
 * at `net.core.somaxconn` (4096 on current kernels).
 */
const LISTEN_BACKLOG = 4096;

/** Serves `app` on `port` and `host` with a backlog that holds a crowd; resolves once it listens. */
export async function listen(app: Koa | RequestListener, port: number, host: string): Promise<Server> {
  const server = createServer(typeof app === 'function' ? app : app.callback());
  server.listen({ port, host, backlog: LISTEN_BACKLOG });
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  return server;
}

/**
 * Every answer closes its connection while the server drains: clients open their next one where the load balancer
 * now sends them, instead of finding their kept one cut.
 */
export function closeConnectionsWhile(server: Server, draining: () => boolean): void {
  server.prependListener('request', (_request, response) => {
    if (draining()) response.setHeader('Connection', 'close');
  });
}
