import { request as httpRequest, type IncomingHttpHeaders } from "node:http";

/** An answer read whole. */
export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A request over raw node:http to a server's address, with exactly the headers given (a forged Host
 * included: fetch() would replace it).
 */
export function rawRequest(
  serverUrl: string,
  path: string,
  headers: Record<string, string>,
  method = "GET",
  body?: string,
): Promise<RawAnswer> {
  const url = new URL(serverUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** A page's canonical address. */
export const canonicalOf = (html: string) => /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];
