import { and, eq, inArray } from "drizzle-orm";
import { afterAll, describe, expect, inject, it } from "vitest";
import { emailPostIfChosen, newsletterMail } from "~/features/subscriptions/subscriptions.server";
import { migrateDatabase, openDatabase, type Database } from "~/server/db/client.server";
import { mailOutbox, newsletterSends, subscribers } from "~/server/db/schema.server";
import { waitFor } from "../helpers/contact";
import { createPostgresDatabase } from "../helpers/databases";
import { makePost } from "../helpers/factories";
import { startServerProcess, type ServerProcess } from "../helpers/server-process";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp";
import { tempDir } from "../helpers/temp-dir";

/**
 * A post's emails to many subscribers, paced, with the server process killed (SIGKILL) while the
 * SMTP server holds an email it never answers: after a restart every subscriber has exactly one
 * email — none lost, none twice.
 */
const SECRET = "newsletter-restart-secret-0123456789abcdef";
const METRICS_TOKEN = "newsletter-restart-metrics-0123456789";
const SUBSCRIBERS = 20;
/** Emails the first SMTP server accepts before it starts hanging. */
const ACCEPTED_BEFORE_KILL = 5;

const skipReason = inject("postgresSkipReason");

/** Emails the server has recorded as sent (its /metrics, read while it runs: PGlite's files are its alone). */
async function recordedSent(server: ServerProcess): Promise<number> {
  const text = await (await server.fetch("/metrics", { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  return Number(/^app_mail_outbox_messages\{state="sent"\} (\d+)$/m.exec(text)?.[1] ?? 0);
}

function startServer(database: { DATA_DIR?: string; DATABASE_URL?: string }, smtpUrl: string) {
  return startServerProcess({
    ...database,
    AUTH_SECRET: SECRET,
    SEED_DEMO_CONTENT: "false",
    INITIAL_ADMIN_EMAIL: "admin@newsletter.example",
    INITIAL_ADMIN_PASSWORD: "newsletter test pass phrase 42",
    SMTP_URL: smtpUrl,
    METRICS_TOKEN,
    // A killed sender's claims come free after this lease.
    CONTACT_LOCK_SECONDS: "5",
    CONTACT_POLL_MS: "200",
  });
}

describe.each(["pglite", "postgres"] as const)("newsletter sending survives SIGKILL [%s]", (kind) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    while (cleanups.length > 0)
      await cleanups
        .pop()?.()
        .catch(() => undefined);
  });
  {
    it.skipIf(kind === "postgres" && skipReason !== null)(
      "every subscriber gets exactly one email after a crash mid-send and a restart",
      async () => {
        let database: { DATA_DIR?: string; DATABASE_URL?: string };
        let open: () => Promise<Database>;
        if (kind === "pglite") {
          const dir = tempDir("newsletter-restart-");
          database = { DATA_DIR: dir };
          open = () => openDatabase({ kind: "pglite", dataDir: dir });
        } else {
          const throwaway = await createPostgresDatabase("newsletter");
          cleanups.push(() => throwaway.drop());
          database = { DATABASE_URL: throwaway.url };
          open = () => openDatabase({ kind: "postgres", url: throwaway.url, poolSize: 1 });
        }

        // The post, its subscribers and its queued emails, as publishing leaves them.
        const addresses = Array.from({ length: SUBSCRIBERS }, (_, i) => `reader-${i}@newsletter.example`);
        let postId = "";
        {
          const opened = await open();
          try {
            await migrateDatabase(opened);
            await opened.db
              .insert(subscribers)
              .values(addresses.map((email) => ({ email, categories: ["Fun"], state: "confirmed" as const })));
            const post = await makePost(opened.db, { category: "Fun", emailOnPublish: true, featuredImageUrl: null });
            postId = post.id;
            expect(await opened.db.transaction((tx) => emailPostIfChosen(tx, post.id))).toBe(SUBSCRIBERS);
          } finally {
            await opened.close();
          }
        }

        // Accepts a few emails, then takes the next ones and never answers: a send is in flight when we kill.
        // (Counted as held, not awaited as "the next DATA": a sender on a second connection may have begun
        // its DATA before the fifth answer, and would never be "next".)
        const stuck: TestSmtpServer = await startSmtpServer({
          onMessage: () => {
            if (stuck.received.length === ACCEPTED_BEFORE_KILL) stuck.mode = "hang";
          },
        });
        cleanups.push(() => stuck.close());
        const first = await startServer(database, stuck.url);
        cleanups.push(async () => void first.child.kill("SIGKILL"));
        await waitFor(() => stuck.received.length >= ACCEPTED_BEFORE_KILL, 60_000, "the first emails");
        // Bounded, so a send that never starts fails here by name rather than at the test's timeout.
        await waitFor(() => stuck.held > 0, 60_000, "the email the SMTP server holds");
        // An email the SMTP server accepted but the process had not yet recorded would be sent again after
        // any crash (SMTP has no way to ask "did you get it?"): the kill comes once the accepted ones are recorded.
        await waitFor(async () => (await recordedSent(first)) >= ACCEPTED_BEFORE_KILL, 60_000, "the accepted emails recorded as sent");
        first.child.kill("SIGKILL");
        await first.exited;
        await stuck.close();
        expect(stuck.received).toHaveLength(ACCEPTED_BEFORE_KILL);

        const [smtp] = await Promise.all([startSmtpServer()]);
        cleanups.push(() => smtp.close());
        const second = await startServer(database, smtp.url);
        cleanups.push(async () => void second.child.kill("SIGKILL"));
        // The killed process's claims come free once their lease runs out.
        await waitFor(() => stuck.received.length + smtp.received.length >= SUBSCRIBERS, 150_000, "every subscriber's email");
        second.child.kill("SIGTERM");
        await waitFor(
          () => second.child.exitCode !== null || second.child.signalCode !== null,
          60_000,
          "the restarted server's exit on SIGTERM",
        );
        expect(await second.exited).toBe(0);

        const recipients = [...stuck.received, ...smtp.received].flatMap((m) => m.to).sort();
        expect(recipients).toEqual([...addresses].sort());
        for (const mail of [...stuck.received, ...smtp.received]) {
          expect(mail.raw).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
        }

        // Nothing is left to send: every email is recorded as sent and every job is finished.
        const opened = await open();
        try {
          const sends = await opened.db
            .select({ sentAt: newsletterSends.sentAt })
            .from(newsletterSends)
            .where(eq(newsletterSends.postId, postId));
          expect(sends).toHaveLength(SUBSCRIBERS);
          expect(sends.every((s) => s.sentAt !== null)).toBe(true);
          const unfinished = await opened.db
            .select({ id: mailOutbox.id })
            .from(mailOutbox)
            .where(and(eq(mailOutbox.kind, newsletterMail.kind), inArray(mailOutbox.state, ["pending", "sending"])));
          expect(unfinished).toEqual([]);
        } finally {
          await opened.close();
        }
      },
      400_000,
    );
  }
});
