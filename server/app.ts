import "react-router";
import { createRequestHandler } from "@react-router/express";
import express from "express";
import { getDatabase, migrateDatabase, openDatabase, setDatabase, type Database } from "~/server/db/client.server";
import { getEnv } from "~/server/env.server";
import { logger } from "~/server/logger.server";
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
}

/** Closes the database cleanly (PGlite must be closed to flush and release its directory). */
export async function shutdown(): Promise<void> {
  const open = database;
  database = undefined;
  setDatabase(undefined);
  if (open) await open.close();
}

export const app = express();

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
