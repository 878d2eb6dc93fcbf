import http from "node:http";
import type { AddressInfo } from "node:net";

/** A real local HTTP server standing in for an old site's image host: the given paths, else 404. */
export interface ImageServer {
  url: string;
  /** Requests seen per path. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

/** Listens on a free port of 127.0.0.1; resolves to the server's origin. */
async function listenLocally(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

export async function startImageServer(files: Record<string, { body: Buffer; type: string }>): Promise<ImageServer> {
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const { pathname } = new URL(req.url ?? "/", "http://localhost");
    hits.set(pathname, (hits.get(pathname) ?? 0) + 1);
    const file = files[pathname];
    if (file) res.writeHead(200, { "content-type": file.type, "content-length": file.body.byteLength }).end(file.body);
    else res.writeHead(404, { "content-type": "text/plain" }).end("not found");
  });
  const url = await listenLocally(server);
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { url, hits, close };
}

/** An address where nothing listens (connections are refused): a port that was just free. */
export async function closedPortUrl(): Promise<string> {
  const server = http.createServer();
  const url = await listenLocally(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return url;
}
