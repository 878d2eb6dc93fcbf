import { randomBytes } from "node:crypto";
import fs from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, inject } from "vitest";
import { migrateDatabase, openDatabase, setDatabase, type Database, type Db } from "~/server/db/client.server";

export type TestDatabaseKind = "pglite" | "postgres";

export interface ThrowawayPostgres {
  url: string;
  /** Drops the database, ending any connection still open to it. */
  drop: () => Promise<void>;
}

async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** A new, empty database in the test PostgreSQL cluster (tests/setup/global-postgres.ts). */
export async function createPostgresDatabase(prefix = "test"): Promise<ThrowawayPostgres> {
  const adminUrl = inject("postgresUrl");
  if (!adminUrl) throw new Error("PostgreSQL is not available for tests");
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await adminQuery(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`) };
}

let pgliteTemplate: Promise<Blob> | undefined;

/** A fresh, migrated database: in-memory PGlite, or a new database in the test PostgreSQL cluster. */
export async function createTestDatabase(kind: TestDatabaseKind): Promise<Database> {
  if (kind === "pglite") {
    // Loaded from the run's migrated dump (tests/setup/global-postgres.ts): initdb costs seconds per database.
    pgliteTemplate ??= fs.promises.readFile(inject("pgliteTemplate")).then((bytes) => new Blob([bytes]));
    const database = await openDatabase({ kind: "pglite-memory", loadDataDir: await pgliteTemplate });
    await migrateDatabase(database);
    return database;
  }
  const throwaway = await createPostgresDatabase();
  const database = await openDatabase({ kind: "postgres", url: throwaway.url, poolSize: 5 });
  await migrateDatabase(database);
  return {
    ...database,
    close: async () => {
      await database.close();
      await throwaway.drop();
    },
  };
}

export interface DatabaseContext {
  readonly kind: TestDatabaseKind;
  readonly database: Database;
  readonly db: Db;
}

/**
 * Runs a suite once on PGlite and once on PostgreSQL, each with its own fresh database, installed
 * as the app's database for the suite. The PostgreSQL run is skipped, with its reason in the name,
 * only where no PostgreSQL binaries exist.
 */
export function describeEachDatabase(name: string, suite: (ctx: DatabaseContext) => void) {
  const skipReason = inject("postgresSkipReason");
  for (const kind of ["pglite", "postgres"] as const) {
    const skip = kind === "postgres" && skipReason !== null;
    const title = skip ? `${name} [postgres] (skipped: ${skipReason})` : `${name} [${kind}]`;
    (skip ? describe.skip : describe)(title, () => {
      let database: Database | undefined;
      const ctx: DatabaseContext = {
        kind,
        get database() {
          if (!database) throw new Error("database not ready");
          return database;
        },
        get db() {
          return ctx.database.db;
        },
      };
      beforeAll(async () => {
        database = await createTestDatabase(kind);
        setDatabase(database);
      });
      afterAll(async () => {
        setDatabase(undefined);
        await database?.close();
      });
      suite(ctx);
    });
  }
}
