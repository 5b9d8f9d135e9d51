import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A port nothing listens on now, for a server started by this run (another may take it before it binds). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
