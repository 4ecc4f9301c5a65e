/** Serves test pages on 127.0.0.1 (random port). It stops by itself if a test forgets to. */
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface FixtureServer {
  url: string;
  /** Serve `html` at `route` (e.g. '/form.html'). */
  page(route: string, html: string): void;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };

export async function startFixtureServer({ dir, lifetimeMs = 10 * 60_000 }: { dir?: string; lifetimeMs?: number } = {}): Promise<FixtureServer> {
  const pages = new Map<string, string>();
  const server = http.createServer(async (req, res) => {
    const route = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const inline = pages.get(route);
    if (inline !== undefined) {
      res.writeHead(200, { 'content-type': TYPES['.html'] });
      res.end(inline);
      return;
    }
    if (dir) {
      const file = path.join(dir, path.normalize(route).replace(/^(\.\.[/\\])+/, ''));
      if (file.startsWith(dir)) {
        try {
          const body = await readFile(file);
          res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
          res.end(body);
          return;
        } catch {
          /* fall through to 404 */
        }
      }
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const lifetime = setTimeout(() => server.close(), lifetimeMs);
  lifetime.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    page: (route, html) => void pages.set(route, html),
    close: () =>
      new Promise<void>((resolve) => {
        clearTimeout(lifetime);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
