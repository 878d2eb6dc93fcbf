import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, inArray, lt, lte, or, sql } from "drizzle-orm";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import type pg from "pg";
import { z } from "zod";
import { MIGRATIONS_DIR } from "~/server/db/client.server";

/**
 * The contact outbox of the release before the mail outbox (commit fa14ec5, the upgrade tests' base:
 * tests/helpers/upgrade-base.ts), statement for statement: its table as it declared it and the
 * queries of its app/features/contact/{contact,outbox}.server.ts, built by the same Drizzle version,
 * so they send the SQL that release sends. That release cannot change any more; these let a test
 * interleave its steps with this release's migrations and adoption on other connections.
 */
const previousContactMessages = pgTable("contact_messages", {
  id: uuid("id").primaryKey().defaultRandom(),
  clientId: text("client_id").unique(),
  name: text("name").notNull(),
  email: text("email").notNull(),
  message: text("message").notNull(),
  ipAddress: text("ip_address"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  deliveryState: text("delivery_state").notNull().default("pending"),
  attempts: integer("attempts").notNull().default(0),
  lastError: text("last_error"),
  nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
  lockedUntil: timestamp("locked_until", { withTimezone: true }),
  deliveredAt: timestamp("delivered_at", { withTimezone: true }),
  handledAt: timestamp("handled_at", { withTimezone: true }),
});

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
  const mine = (id: string) => and(eq(previousContactMessages.id, id), eq(previousContactMessages.deliveryState, "sending"));
  return {
    /** submitContactMessage's insert (it then nudges its outbox, whose next round claims the message). */
    async store(n: number): Promise<string> {
      const [row] = await db
        .insert(previousContactMessages)
        .values({ name: `Sender ${n}`, email: `sender${n}@example.com`, message: `Message ${n}`, clientId: null, ipAddress: "127.0.0.1" })
        .onConflictDoNothing({ target: previousContactMessages.clientId })
        .returning({ id: previousContactMessages.id });
      if (!row) throw new Error("insert returned no row");
      return row.id;
    },
    /** ContactOutbox.claim: the due messages, taken for `lockSeconds` (its default lease is 120 s). */
    async claim(lockSeconds = 120, batchSize = 10): Promise<string[]> {
      const due = db
        .select({ id: previousContactMessages.id })
        .from(previousContactMessages)
        .where(
          or(
            and(eq(previousContactMessages.deliveryState, "pending"), lte(previousContactMessages.nextAttemptAt, sql`now()`)),
            and(eq(previousContactMessages.deliveryState, "sending"), lt(previousContactMessages.lockedUntil, sql`now()`)),
          ),
        )
        .orderBy(previousContactMessages.nextAttemptAt)
        .limit(batchSize)
        .for("update", { skipLocked: true });
      const claimed = await db
        .update(previousContactMessages)
        .set({ deliveryState: "sending", lockedUntil: sql`now() + make_interval(secs => ${lockSeconds})` })
        .where(inArray(previousContactMessages.id, due))
        .returning({ id: previousContactMessages.id });
      return claimed.map((row) => row.id);
    },
    /** ContactOutbox.deliver after the SMTP server accepted the email: true when the claim was still its own. */
    async markSent(id: string, attemptsBefore = 0): Promise<boolean> {
      const settled = await db
        .update(previousContactMessages)
        .set({ deliveryState: "sent", deliveredAt: sql`now()`, lockedUntil: null, lastError: null, attempts: attemptsBefore + 1 })
        .where(mine(id))
        .returning({ id: previousContactMessages.id });
      return settled.length === 1;
    },
    /** ContactOutbox.deliver after a failed attempt (not the last): back to 'pending' for a retry. */
    async markFailed(id: string, attemptsBefore = 0): Promise<boolean> {
      const settled = await db
        .update(previousContactMessages)
        .set({
          deliveryState: "pending",
          attempts: attemptsBefore + 1,
          lastError: "421 try again later",
          lockedUntil: null,
          nextAttemptAt: sql`now() + make_interval(secs => ${5})`,
        })
        .where(mine(id))
        .returning({ id: previousContactMessages.id });
      return settled.length === 1;
    },
    /** What the row says (the previous release's inbox columns). */
    async row(id: string) {
      const [row] = await db
        .select({
          state: previousContactMessages.deliveryState,
          attempts: previousContactMessages.attempts,
          deliveredAt: previousContactMessages.deliveredAt,
        })
        .from(previousContactMessages)
        .where(eq(previousContactMessages.id, id));
      return row;
    },
  };
}
