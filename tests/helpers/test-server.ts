import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Express } from "express";
import { createSession } from "~/features/auth/session.server";
import { createUser } from "~/features/users/users.server";
import type { Db } from "~/server/db/client.server";
import type { StoredRole } from "~/lib/roles";

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

let counter = 0;

/** Creates a user with the given role ('user' = no stored role) and returns a Cookie header for them. */
export async function signedInAs(db: Db, role: StoredRole | "user"): Promise<{ userId: string; email: string; cookie: string }> {
  counter += 1;
  const email = `${role}-${Date.now()}-${counter}@test.example`;
  const created = await createUser(db, { email, password: "integration pass phrase 7", roles: role === "user" ? [] : [role] });
  const setCookie = await createSession(db, created.id, new Request("http://localhost/", { headers: { "user-agent": "vitest" } }));
  return { userId: created.id, email, cookie: setCookie.split(";")[0] ?? "" };
}
