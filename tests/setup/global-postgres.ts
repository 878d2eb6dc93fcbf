import type { TestProject } from "vitest/node";
import { startPostgresCluster } from "../helpers/postgres-cluster";

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string | null;
    postgresSkipReason: string | null;
  }
}

/** One PostgreSQL cluster for the whole run; each test file creates its own database in it. */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) {
    project.provide("postgresUrl", process.env.TEST_DATABASE_URL);
    project.provide("postgresSkipReason", null);
    return;
  }
  const cluster = await startPostgresCluster();
  if ("skipped" in cluster) {
    console.warn(`\n[tests] Skipping the PostgreSQL half of the integration tests: ${cluster.skipped}\n`);
    project.provide("postgresUrl", null);
    project.provide("postgresSkipReason", cluster.skipped);
    return;
  }
  project.provide("postgresUrl", cluster.url);
  project.provide("postgresSkipReason", null);
  return () => cluster.stop();
}
