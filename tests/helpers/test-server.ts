import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Express } from "express";

const BUILD = path.resolve("build/server/index.js");

export interface TestServer {
  url: string;
  /** fetch against the server; relative paths are resolved against its URL. */
  fetch: (input: string, init?: RequestInit) => Promise<Response>;
  close: () => Promise<void>;
}

/**
 * Serves the production build (`npm run build`) over real HTTP on a free port, with the database
 * that `describeEachDatabase` installed (the build shares the app's database holder on globalThis).
 */
export async function startTestServer(): Promise<TestServer> {
  if (!fs.existsSync(BUILD)) throw new Error("No production build: run `npm run build` before the integration tests");
  const mod = (await import(pathToFileURL(BUILD).href)) as { app: Express };
  const server = http.createServer(mod.app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    fetch: (input, init) => fetch(new URL(input, url), { redirect: "manual", ...init }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
