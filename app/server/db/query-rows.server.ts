import type { SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "./client.server";

/** The database itself or a transaction on it: all a backup, a restore or a catalogue read needs is to run SQL. */
export type Executor = Pick<Db, "execute">;

/** Runs a query and checks each row's shape (node-postgres and PGlite both answer `{ rows }`). */
export async function queryRows<T extends z.ZodType>(exec: Executor, query: SQL, row: T): Promise<z.infer<T>[]> {
  const result = await exec.execute(query);
  return z.object({ rows: z.array(row) }).parse(result).rows;
}
