import { appliedMigration, loadMigrations } from "~/server/backup/database-info.server";
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

let newestMigration: number | undefined;

/** Whether the newest migration this build ships is recorded as applied (Drizzle's own bookkeeping). */
async function migrationsApplied(database: Database): Promise<boolean> {
  newestMigration ??= Math.max(0, ...loadMigrations(MIGRATIONS_DIR).map((m) => m.createdAt));
  const applied = await appliedMigration(database.db);
  return (applied?.createdAt ?? 0) >= newestMigration;
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
