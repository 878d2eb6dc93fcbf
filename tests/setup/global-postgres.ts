import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { TestProject } from "vitest/node";
import { migrateDatabase, openDatabase } from "~/server/db/client.server";
import { removePostgresCluster, startPostgresCluster, type PostgresCluster } from "../helpers/postgres-cluster";

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string | null;
    postgresSkipReason: string | null;
    /** A migrated in-memory PGlite, dumped once per run: test databases load it instead of running initdb. */
    pgliteTemplate: string;
    /** The system's temporary directory, for what is kept between runs (the upgrade base's build). */
    systemTempDir: string;
  }
}

/**
 * Points the system's temporary directory (TMPDIR, which the test workers and the servers they start
 * inherit) at a directory of this run's own, and returns what puts it back and removes that directory.
 * Every file leaves its temporary directories for tempDir() (tests/helpers/temp-dir.ts) to remove;
 * what is still there at the end was left by a file whose tests were all skipped (vitest runs no
 * hooks then), by a helper that made its own, or by the application: named in a warning, then removed.
 */
function redirectTempDirForRun(): () => void {
  const saved = process.env.TMPDIR;
  removeInterruptedRuns();
  const run = fs.mkdtempSync(path.join(os.tmpdir(), `vitest-run-${process.pid}-`));
  // A PostgreSQL started by a test runs as the postgres user, which must be able to reach its directory in here.
  fs.chmodSync(run, 0o711);
  process.env.TMPDIR = run;
  return () => {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
    // tsx keeps its compile cache there for the CLI processes tests start (tsx-<uid>): not left behind by mistake.
    const left = fs.readdirSync(run).filter((name) => !/^tsx-\d+$/.test(name));
    if (left.length > 0) console.warn(`\n[tests] Temporary files left behind (now removed): ${left.sort().join(", ")}\n`);
    fs.rmSync(run, { recursive: true, force: true });
  };
}

/**
 * A run killed before its teardown (a CI time limit, kill -9) leaves its directory, and maybe a PostgreSQL
 * still running in it: the next run stops that server and removes the directory, once the process named
 * in the directory's name is gone.
 */
function removeInterruptedRuns(): void {
  for (const name of fs.readdirSync(os.tmpdir())) {
    const pid = Number(/^vitest-run-(\d+)-/.exec(name)?.[1] ?? Number.NaN);
    if (Number.isNaN(pid) || isRunning(pid)) continue;
    const dir = path.join(os.tmpdir(), name);
    for (const entry of fs.readdirSync(dir)) if (entry.startsWith("pgtest-")) removePostgresCluster(path.join(dir, entry));
    fs.rmSync(dir, { recursive: true, force: true });
    console.warn(`\n[tests] Removed ${dir}, left by an interrupted run (process ${pid}).\n`);
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: running, as another user.
    return error instanceof Error && "code" in error && error.code === "EPERM";
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
  project.provide("systemTempDir", os.tmpdir());
  const removeRunTempDir = redirectTempDirForRun();
  let template: string | undefined;
  const teardown = (cluster?: PostgresCluster) => {
    cluster?.stop();
    if (template) fs.rmSync(path.dirname(template), { recursive: true, force: true });
    removeRunTempDir();
  };
  try {
    template = await dumpMigratedPglite();
    project.provide("pgliteTemplate", template);
    if (process.env.TEST_DATABASE_URL) {
      project.provide("postgresUrl", process.env.TEST_DATABASE_URL);
      project.provide("postgresSkipReason", null);
      return () => teardown();
    }
    const cluster = await startPostgresCluster();
    if ("skipped" in cluster) {
      console.warn(`\n[tests] Skipping the PostgreSQL half of the integration tests: ${cluster.skipped}\n`);
      project.provide("postgresUrl", null);
      project.provide("postgresSkipReason", cluster.skipped);
      return () => teardown();
    }
    project.provide("postgresUrl", cluster.url);
    project.provide("postgresSkipReason", null);
    return () => teardown(cluster);
  } catch (error) {
    teardown();
    throw error;
  }
}
