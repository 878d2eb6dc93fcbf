import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { TestProject } from "vitest/node";
import { migrateDatabase, openDatabase } from "~/server/db/client.server";
import { startPostgresCluster } from "../helpers/postgres-cluster";

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string | null;
    postgresSkipReason: string | null;
    /** A migrated in-memory PGlite, dumped once per run: test databases load it instead of running initdb. */
    pgliteTemplate: string;
  }
}

/** Dumps a freshly migrated PGlite to a file once per run (tests/helpers/databases.ts loads it). */
async function dumpMigratedPglite(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vitest-pglite-"));
  const database = await openDatabase({ kind: "pglite", dataDir: dir });
  try {
    await migrateDatabase(database);
  } finally {
    await database.close();
  }
  const client = await PGlite.create({ dataDir: path.join(dir, "pglite") });
  try {
    const file = path.join(dir, "migrated.tar");
    fs.writeFileSync(file, Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer()));
    return file;
  } finally {
    await client.close();
  }
}

/** One PostgreSQL cluster for the whole run; each test file creates its own database in it. */
export default async function setup(project: TestProject) {
  const template = await dumpMigratedPglite();
  project.provide("pgliteTemplate", template);
  const removeTemplate = () => fs.rmSync(path.dirname(template), { recursive: true, force: true });
  if (process.env.TEST_DATABASE_URL) {
    project.provide("postgresUrl", process.env.TEST_DATABASE_URL);
    project.provide("postgresSkipReason", null);
    return removeTemplate;
  }
  const cluster = await startPostgresCluster();
  if ("skipped" in cluster) {
    console.warn(`\n[tests] Skipping the PostgreSQL half of the integration tests: ${cluster.skipped}\n`);
    project.provide("postgresUrl", null);
    project.provide("postgresSkipReason", cluster.skipped);
    return removeTemplate;
  }
  project.provide("postgresUrl", cluster.url);
  project.provide("postgresSkipReason", null);
  return async () => {
    removeTemplate();
    await cluster.stop();
  };
}
