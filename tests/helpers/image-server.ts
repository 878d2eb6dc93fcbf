import http from "node:http";
import type { AddressInfo } from "node:net";

/** A real local HTTP server standing in for an old site's image host: the given paths, else 404. */
export interface ImageServer {
  url: string;
  /** Requests seen per path. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function startImageServer(files: Record<string, { body: Buffer; type: string }>): Promise<ImageServer> {
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? "/", "http://localhost").pathname;
    hits.set(pathname, (hits.get(pathname) ?? 0) + 1);
    const file = files[pathname];
    if (!file) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": file.type, "content-length": file.body.byteLength }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An address where nothing listens (connections are refused): a port that was just free. */
export async function closedPortUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
