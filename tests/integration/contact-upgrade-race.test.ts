import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, inject, it } from "vitest";
import { adoptPreviousReleaseMessages } from "~/features/contact/contact.server";
import { migrateDatabase, openDatabase, type Database } from "~/server/db/client.server";
import { contactMessages, mailOutbox } from "~/server/db/schema.server";
import { waitFor } from "../helpers/contact";
import { createPostgresDatabase, type ThrowawayPostgres } from "../helpers/databases";
import { migrateToPreviousRelease, previousReleaseContact } from "../helpers/previous-release-contact";
import { suiteEnv } from "../helpers/suite-env";

/**
 * A rolling upgrade from the release before the mail outbox (docs/decisions/0067-rolling-upgrade-test.md),
 * step by step on separate connections: the previous release's contact outbox (its own statements,
 * tests/helpers/previous-release-contact.ts) against this release's migrations and its adoption of the
 * previous release's messages. Each message must be sent exactly once: either by the previous release
 * (its claim still held when it marks the message sent) or by the mail outbox (a mail row), never both,
 * never neither.
 */
const skipReason = inject("postgresSkipReason");

describe.skipIf(skipReason !== null)("the previous release's contact outbox beside this release [postgres]", () => {
  let throwaway: ThrowawayPostgres;
  let database: Database;
  /** Instance B of the previous release (its own connection). */
  let oldClient: pg.Client;
  /** Another session: holds a lock while the others run. */
  let other: pg.Client;

  suiteEnv({ LOG_LEVEL: "silent", CONTACT_TO: "owner@example.com" });

  beforeEach(async () => {
    throwaway = await createPostgresDatabase("upgrade_race");
    oldClient = new pg.Client({ connectionString: throwaway.url });
    other = new pg.Client({ connectionString: throwaway.url });
    await Promise.all([oldClient.connect(), other.connect()]);
    await migrateToPreviousRelease(oldClient);
    database = await openDatabase({ kind: "postgres", url: throwaway.url, poolSize: 3 });
  });
  afterEach(async () => {
    await Promise.all([oldClient.end(), other.end(), database.close()]);
    await throwaway.drop();
  });

  /** Whether the mail outbox has a row for the message (it will send it). */
  const hasMailRow = async (id: string) =>
    (
      await database.db
        .select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(eq(mailOutbox.dedupeKey, `contact:${id}`))
    ).length === 1;

  /** Until a statement of this database's sessions waits for a row or table lock. */
  const someoneWaitsForALock = () =>
    waitFor(
      async () => {
        const { rows } = await other.query<{ waiting: number }>(
          "select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
        );
        return (rows[0]?.waiting ?? 0) > 0;
      },
      10_000,
      "a statement waiting for a lock",
    );

  it("a message the previous release is sending while this release migrates is sent by it alone", async () => {
    const b = previousReleaseContact(oldClient);
    // B stored a message and claimed it (its 120 s lease); the SMTP server is accepting it right now.
    const inFlight = await b.store(1);
    expect(await b.claim()).toEqual([inFlight]);
    // A second one in flight, whose attempt will fail after the migration.
    const failing = await b.store(2);
    expect(await b.claim()).toEqual([failing]);
    // A third one it was sending when it was killed: its lease ran out.
    const orphaned = await b.store(3);
    expect(await b.claim()).toEqual([orphaned]);
    await oldClient.query("update contact_messages set locked_until = now() - interval '1 second' where id = $1", [orphaned]);
    // And one it stored and has not claimed yet.
    const stored = await b.store(4);

    // Instance A starts this release: the migrations run while B's sends are in flight.
    await migrateDatabase(database);

    // B's SMTP server accepted the first: B settles its own claim, and the mail outbox has nothing to send again.
    expect(await b.markSent(inFlight)).toBe(true);
    expect(await b.row(inFlight)).toMatchObject({ state: "sent", attempts: 1, deliveredAt: expect.any(Date) });
    expect(await hasMailRow(inFlight)).toBe(false);
    // The orphaned one and the stored one are the mail outbox's now; B can claim neither.
    expect(await hasMailRow(orphaned)).toBe(true);
    expect(await hasMailRow(stored)).toBe(true);
    expect(await b.claim()).toEqual([]);
    // B's failed attempt hands its message back ('pending'): adopted once, by this release.
    expect(await b.markFailed(failing)).toBe(true);
    expect(await adoptPreviousReleaseMessages(database.db)).toBe(1);
    expect(await hasMailRow(failing)).toBe(true);
    expect(await b.claim()).toEqual([]);
    expect(await adoptPreviousReleaseMessages(database.db)).toBe(0);
  });

  it("a message whose sender died during the migration is adopted once its lease has run out", async () => {
    const b = previousReleaseContact(oldClient);
    const inFlight = await b.store(1);
    expect(await b.claim()).toEqual([inFlight]);
    await migrateDatabase(database);
    // B still holds the lease: nobody else may send it.
    expect(await adoptPreviousReleaseMessages(database.db)).toBe(0);
    expect(await b.claim()).toEqual([]);
    // B was killed before it could mark it; its lease runs out.
    await database.db
      .update(contactMessages)
      .set({ legacyLockedUntil: sql`now() - interval '1 second'` })
      .where(eq(contactMessages.id, inFlight));
    expect(await adoptPreviousReleaseMessages(database.db)).toBe(1);
    expect(await hasMailRow(inFlight)).toBe(true);
    // B, had it been only slow, may not settle it any more (its claim is gone), nor claim it again.
    expect(await b.markSent(inFlight)).toBe(false);
    expect(await b.claim()).toEqual([]);
  });

  it("the previous release's claim and this release's adoption never both take a message (READ COMMITTED, both orders)", async () => {
    await migrateDatabase(database);
    const b = previousReleaseContact(oldClient);

    // B claims first and has not committed yet: the adoption waits for B's row lock, then sees B's lease.
    const first = await b.store(1);
    await oldClient.query("begin");
    expect(await b.claim()).toEqual([first]);
    const adoptingAfterB = adoptPreviousReleaseMessages(database.db);
    await someoneWaitsForALock();
    await oldClient.query("commit");
    expect(await adoptingAfterB).toBe(0);
    expect(await b.markSent(first)).toBe(true);
    expect(await hasMailRow(first)).toBe(false);

    // The adoption takes the row first and is still in its transaction (held up by another session's
    // uncommitted mail row under the same key): B's claim skips the locked row, and finds it taken after.
    const second = await b.store(2);
    await other.query("begin");
    await other.query("insert into mail_outbox (kind, recipient, dedupe_key) values ('contact.forward', '', $1)", [`contact:${second}`]);
    const adoptingFirst = adoptPreviousReleaseMessages(database.db);
    await someoneWaitsForALock();
    expect(await b.claim()).toEqual([]);
    await other.query("rollback");
    expect(await adoptingFirst).toBe(1);
    expect(await b.claim()).toEqual([]);
    expect(await hasMailRow(second)).toBe(true);
    expect(await b.row(second)).toMatchObject({ state: "sent" });
  });
});
