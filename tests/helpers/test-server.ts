import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Express } from "express";
import { afterAll, beforeAll } from "vitest";
import { settingsFormFields } from "~/features/settings/settings-schema";
import { readSiteSettings } from "~/features/settings/settings.server";
import type { Role } from "~/lib/roles";
import { startContentVersion, stopContentVersion } from "~/server/content-version.server";
import type { Db } from "~/server/db/client.server";
import type { DatabaseContext } from "./databases";
import { signedInAs } from "./factories";

const BUILD = path.resolve("build/server/index.js");

/** A browser's User-Agent: React Router streams pages to browsers and renders them whole for bots. */
export const BROWSER_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36";

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
export async function startTestServer({ hitPathFirst = false } = {}): Promise<TestServer> {
  if (!fs.existsSync(BUILD)) throw new Error("No production build: run `npm run build` before the integration tests");
  const mod = (await import(pathToFileURL(BUILD).href)) as {
    app: Express;
    answerPageCacheHit: (req: http.IncomingMessage, res: http.ServerResponse) => boolean;
  };
  // `hitPathFirst`: page-cache hits answered before Express, as server.js does.
  const server = http.createServer(hitPathFirst ? (req, res) => mod.answerPageCacheHit(req, res) || mod.app(req, res) : mod.app);
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

export interface SignedInTestServer extends TestServer {
  /** The session cookie of a user made for the suite. */
  cookie: string;
  /** A form post as that user (urlencoded, like a browser without JavaScript). */
  postForm: (path: string, body: Record<string, string>) => Promise<Response>;
}

/**
 * The production server for one `describeEachDatabase` suite, started before its tests and closed
 * after them, with a signed-in user of the given role.
 */
export function useSignedInServer(ctx: DatabaseContext, role: Role): SignedInTestServer {
  let started: TestServer | undefined;
  let cookie = "";
  const current = () => {
    if (!started) throw new Error("The test server starts in beforeAll");
    return started;
  };
  beforeAll(async () => {
    process.env.LOG_LEVEL = "silent";
    started = await startTestServer();
    cookie = (await signedInAs(ctx.db, role)).cookie;
  });
  afterAll(() => started?.close());
  return {
    get url() {
      return current().url;
    },
    get cookie() {
      return cookie;
    },
    fetch: (input, init) => current().fetch(input, init),
    close: () => current().close(),
    postForm: (path, body) =>
      current().fetch(path, {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(body).toString(),
      }),
  };
}

/**
 * The production server for one suite with its page cache on: it follows the content version, as
 * start-up does (the cache is off without it); both stop after the suite.
 */
export function useCachingTestServer(): TestServer {
  let started: TestServer | undefined;
  const current = () => {
    if (!started) throw new Error("The test server starts in beforeAll");
    return started;
  };
  beforeAll(async () => {
    await startContentVersion();
    started = await startTestServer();
  });
  afterAll(async () => {
    await started?.close();
    await stopContentVersion();
  });
  return {
    get url() {
      return current().url;
    },
    fetch: (input, init) => current().fetch(input, init),
    close: () => current().close(),
  };
}

/** Saves the Site address through the admin's Settings form, as an administrator (cookie); the other settings stay. */
export async function saveSiteAddress(server: TestServer, db: Db, cookie: string, siteUrl: string): Promise<Response> {
  const form = { ...settingsFormFields(await readSiteSettings(db)), siteUrl };
  return server.fetch("/admin/settings", { method: "POST", headers: { origin: server.url, cookie }, body: new URLSearchParams(form) });
}
