import fs from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { MIGRATIONS_DIR, type Database } from "~/server/db/client.server";
import { logger } from "~/server/logger.server";
import type { Storage } from "~/server/storage.server";

/**
 * Readiness (GET /readyz): this instance can serve — every migration it ships is applied, and the
 * database and the file storage answer. Liveness (/healthz) checks none of this, so an orchestrator
 * does not restart a healthy process because PostgreSQL or S3 is briefly away.
 */
export type CheckState = "ok" | "pending" | "down";
export interface Readiness {
  ready: boolean;
  checks: { database: CheckState; migrations: CheckState; storage: CheckState };
}

const journalSchema = z.object({ entries: z.array(z.object({ tag: z.string(), when: z.number() })) });

let newestMigration: Promise<number> | undefined;
/** When the newest migration this build ships was generated (drizzle records it as created_at). */
function newestShippedMigration(): Promise<number> {
  newestMigration ??= fs
    .readFile(path.join(MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")
    .then((text) => Math.max(0, ...journalSchema.parse(JSON.parse(text)).entries.map((e) => e.when)));
  return newestMigration;
}

async function migrationsApplied(database: Database): Promise<boolean> {
  const result = await database.db.execute(sql`select coalesce(max(created_at), 0)::float8 as newest from drizzle.__drizzle_migrations`);
  const row = z.object({ rows: z.array(z.object({ newest: z.coerce.number() })) }).parse(result).rows[0];
  return (row?.newest ?? 0) >= (await newestShippedMigration());
}

async function check(name: string, run: () => Promise<CheckState>): Promise<CheckState> {
  try {
    return await run();
  } catch (error) {
    logger.warn({ err: error, check: name }, "readiness check failed");
    return "down";
  }
}

export async function checkReadiness(database: Database | undefined, storage: () => Storage): Promise<Readiness> {
  const [databaseState, migrations, storageState] = await Promise.all([
    database ? check("database", async () => (await database.ping(), "ok")) : Promise.resolve<CheckState>("down"),
    database
      ? check("migrations", async () => ((await migrationsApplied(database)) ? "ok" : "pending"))
      : Promise.resolve<CheckState>("pending"),
    check("storage", async () => (await storage().ping(), "ok")),
  ]);
  const checks = { database: databaseState, migrations, storage: storageState };
  return { ready: Object.values(checks).every((state) => state === "ok"), checks };
}
