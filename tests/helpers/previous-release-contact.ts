import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, inArray, lt, lte, or, sql } from "drizzle-orm";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import type pg from "pg";
import { z } from "zod";
import { MIGRATIONS_DIR } from "~/server/db/client.server";
import { contactMessages } from "~/server/db/schema.server";

/**
 * The contact outbox of the release before the mail outbox (commit fa14ec5, the upgrade tests' base:
 * tests/helpers/upgrade-base.ts), statement for statement: the queries of its
 * app/features/contact/{contact,outbox}.server.ts, built by the same Drizzle version over the columns
 * this release keeps for it (the `legacy…` columns of contact_messages, under the same names), so their
 * WHERE and SET clauses are the SQL that release sends (they return only the id). That release cannot
 * change any more; these let a test interleave its steps with this release's migrations and adoption
 * on other connections.
 */
const m = contactMessages;

/** The migrations that release shipped (0000–0027); the ones after are this release's. */
const PREVIOUS_RELEASE_MIGRATIONS = 28;

/** Brings an empty database to the previous release's schema (its migrations, from this checkout's files). */
export async function migrateToPreviousRelease(client: pg.Client): Promise<void> {
  const journal = z
    .object({ entries: z.array(z.object({ tag: z.string() }).passthrough()) })
    .passthrough()
    .parse(JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "previous-migrations-"));
  try {
    fs.mkdirSync(path.join(dir, "meta"));
    const entries = journal.entries.slice(0, PREVIOUS_RELEASE_MIGRATIONS);
    fs.writeFileSync(path.join(dir, "meta", "_journal.json"), JSON.stringify({ ...journal, entries }));
    for (const { tag } of entries) fs.copyFileSync(path.join(MIGRATIONS_DIR, `${tag}.sql`), path.join(dir, `${tag}.sql`));
    await migrate(drizzle(client), { migrationsFolder: dir });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** One instance of the previous release, talking to the database over `client`. */
export function previousReleaseContact(client: pg.Client) {
  const db: NodePgDatabase = drizzle(client);
  const mine = (id: string) => and(eq(m.id, id), eq(m.legacyDeliveryState, "sending"));
  return {
    /**
     * submitContactMessage's insert (it then nudges its outbox, whose next round claims the message).
     * Its Drizzle insert names every column of its table, which this release's table outgrew: the same
     * row, written out.
     */
    async store(n: number): Promise<string> {
      const { rows } = await client.query<{ id: string }>(
        `insert into contact_messages (name, email, message, client_id, ip_address) values ($1, $2, $3, null, '127.0.0.1')
         on conflict (client_id) do nothing returning id`,
        [`Sender ${n}`, `sender${n}@example.com`, `Message ${n}`],
      );
      const id = rows[0]?.id;
      if (!id) throw new Error("insert returned no row");
      return id;
    },
    /** ContactOutbox.claim: the due messages, taken for `lockSeconds` (its default lease is 120 s). */
    async claim(lockSeconds = 120, batchSize = 10): Promise<string[]> {
      const due = db
        .select({ id: m.id })
        .from(m)
        .where(
          or(
            and(eq(m.legacyDeliveryState, "pending"), lte(m.legacyNextAttemptAt, sql`now()`)),
            and(eq(m.legacyDeliveryState, "sending"), lt(m.legacyLockedUntil, sql`now()`)),
          ),
        )
        .orderBy(m.legacyNextAttemptAt)
        .limit(batchSize)
        .for("update", { skipLocked: true });
      const claimed = await db
        .update(m)
        .set({ legacyDeliveryState: "sending", legacyLockedUntil: sql`now() + make_interval(secs => ${lockSeconds})` })
        .where(inArray(m.id, due))
        .returning({ id: m.id });
      return claimed.map((row) => row.id);
    },
    /** ContactOutbox.deliver after the SMTP server accepted the email: true when the claim was still its own. */
    async markSent(id: string, attemptsBefore = 0): Promise<boolean> {
      const settled = await db
        .update(m)
        .set({
          legacyDeliveryState: "sent",
          legacyDeliveredAt: sql`now()`,
          legacyLockedUntil: null,
          legacyLastError: null,
          legacyAttempts: attemptsBefore + 1,
        })
        .where(mine(id))
        .returning({ id: m.id });
      return settled.length === 1;
    },
    /** ContactOutbox.deliver after a failed attempt (not the last): back to 'pending' for a retry. */
    async markFailed(id: string, attemptsBefore = 0): Promise<boolean> {
      const settled = await db
        .update(m)
        .set({
          legacyDeliveryState: "pending",
          legacyAttempts: attemptsBefore + 1,
          legacyLastError: "421 try again later",
          legacyLockedUntil: null,
          legacyNextAttemptAt: sql`now() + make_interval(secs => ${5})`,
        })
        .where(mine(id))
        .returning({ id: m.id });
      return settled.length === 1;
    },
    /** What the row says (the previous release's inbox columns). */
    async row(id: string) {
      const [row] = await db
        .select({
          state: m.legacyDeliveryState,
          attempts: m.legacyAttempts,
          deliveredAt: m.legacyDeliveredAt,
        })
        .from(m)
        .where(eq(m.id, id));
      return row;
    },
  };
}
