import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A port on 127.0.0.1 where nothing listens (a server that is not running). */
export async function deadPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}
