import "react-router";
import { createRequestHandler } from "@react-router/express";
import express from "express";
import { startOutbox, stopOutbox } from "~/features/contact/outbox.server";
import { getDatabase, migrateDatabase, openDatabase, setDatabase, type Database } from "~/server/db/client.server";
import { getEnv } from "~/server/env.server";
import { logger } from "~/server/logger.server";
import { CLIENT_IP_HEADER } from "~/server/request.server";
import { seedIfEmpty } from "~/server/seed.server";

export { getEnv, logger };

let database: Database | undefined;

/** Opens the database, applies migrations and seeds a new site — all before the server listens. */
export async function startup(): Promise<void> {
  const env = getEnv();
  const started = Date.now();
  database = env.DATABASE_URL
    ? await openDatabase({ kind: "postgres", url: env.DATABASE_URL })
    : await openDatabase({ kind: "pglite", dataDir: env.dataDir });
  await migrateDatabase(database);
  await seedIfEmpty(database.db, env);
  setDatabase(database);
  logger.info({ database: database.kind, ms: Date.now() - started }, "database ready");
  startOutbox();
}

/** Closes the database cleanly (PGlite must be closed to flush and release its directory). */
export async function shutdown(): Promise<void> {
  await stopOutbox();
  const open = database;
  database = undefined;
  setDatabase(undefined);
  if (open) await open.close();
}

export const app = express();

app.use((req, _res, next) => {
  // The socket address, for rate limits; a value sent by the client is never trusted.
  req.headers[CLIENT_IP_HEADER] = req.socket.remoteAddress ?? "unknown";
  next();
});

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

// CSRF defence in depth (cookies are also SameSite=Lax): a state-changing request sent by a browser
// from another site is refused. Non-browser clients send neither header and carry no cookie.
app.use((req, res, next) => {
  if (SAFE_METHODS.has(req.method)) return next();
  const origin = req.headers.origin;
  const site = req.headers["sec-fetch-site"];
  const host = req.headers["x-forwarded-host"] && getEnv().TRUST_PROXY ? String(req.headers["x-forwarded-host"]) : req.headers.host;
  let crossSite = site === "cross-site";
  if (origin && origin !== "null") {
    try {
      crossSite = new URL(origin).host !== host;
    } catch {
      crossSite = true;
    }
  } else if (origin === "null") {
    crossSite = true;
  }
  if (crossSite) {
    res.status(403).json({ error: "Cross-site request refused. Please use the form on this site." });
    return;
  }
  next();
});

app.get("/healthz", async (_req, res) => {
  try {
    await getDatabase().ping();
    res.status(200).json({ status: "ok", database: "ok" });
  } catch (error) {
    logger.error({ err: error }, "health check failed");
    res.status(503).json({ status: "unavailable", database: "down" });
  }
});

app.use(
  createRequestHandler({
    build: () => import("virtual:react-router/server-build"),
  }),
);
