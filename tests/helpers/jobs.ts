import type { Database } from "~/server/db/client.server";
import { defineJob, type AnyJobDefinition } from "~/server/jobs/jobs.server";
import { JobRunner } from "~/server/jobs/runner.server";

/**
 * Runs every due job of these kinds on `database` until none is left, then stops. The kinds are
 * registered again from the test's own modules first: the build registered its own copies, whose
 * errors (PermanentJobError) the runner here would not recognize.
 */
export async function drainJobs(database: Database, definitions: readonly AnyJobDefinition[]): Promise<void> {
  for (const definition of definitions) defineJob(definition.kind, definition.schema, definition.handler, definition);
  const runner = new JobRunner({ database: () => database, tasks: [], pollMs: 60_000, kinds: definitions.map((d) => d.kind) });
  try {
    await runner.drain();
  } finally {
    await runner.stop();
  }
}
