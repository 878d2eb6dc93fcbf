import { sql } from "drizzle-orm";
import { afterAll, beforeAll, inject } from "vitest";
import { z } from "zod";
import { openDatabase, type Database } from "~/server/db/client.server";
import type { DatabaseContext } from "./databases";

/**
 * A second, independent handle on the suite's database, as a second instance would have: its own
 * pool and its own LISTEN connection on PostgreSQL. PGlite is one process's database, so there the
 * "second instance" shares the handle (the same code runs; concurrency is only within the process).
 */
export async function openSecondHandle(ctx: DatabaseContext): Promise<{ database: Database; close: () => Promise<void> }> {
  if (ctx.kind === "pglite") return { database: ctx.database, close: async () => undefined };
  const adminUrl = inject("postgresUrl");
  if (!adminUrl) throw new Error("PostgreSQL is not available for tests");
  const result = z
    .object({ rows: z.tuple([z.object({ name: z.string() })]) })
    .parse(await ctx.db.execute(sql`select current_database() as name`));
  const name = result.rows[0].name;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: "postgres", url: url.toString(), poolSize: 5 });
  return { database, close: () => database.close() };
}

/** Opens a second handle for the enclosing suite (closed after it); call the result inside tests. */
export function useSecondHandle(ctx: DatabaseContext): () => Database {
  let second: { database: Database; close: () => Promise<void> } | undefined;
  beforeAll(async () => {
    second = await openSecondHandle(ctx);
  });
  afterAll(async () => {
    await second?.close();
  });
  return () => {
    if (!second) throw new Error("second database handle not open yet");
    return second.database;
  };
}

/** Polls `check` every 10 ms until it returns true; fails after `timeoutMs`. */
export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
