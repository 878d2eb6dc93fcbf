import { afterAll, describe, expect, inject, it } from "vitest";
import { openDatabase, type Db } from "~/server/db/client.server";
import { easyAltchaToken } from "../helpers/altcha";
import { deliveredIds, deliveryOf, waitFor } from "../helpers/contact";
import { createPostgresDatabase } from "../helpers/databases";
import { startServerProcess, type ServerProcess } from "../helpers/server-process";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp";
import { tempDir } from "../helpers/temp-dir";

/**
 * A real server process (`node server.js` on the production build) is killed with SIGKILL after it
 * stored a message and while it was handing it to SMTP; after a restart the message is delivered.
 */
const SECRET = "contact-restart-secret-0123456789abcdef";

function startServer(database: { DATA_DIR?: string; DATABASE_URL?: string }, smtpUrl: string): Promise<ServerProcess> {
  return startServerProcess({
    ...database,
    AUTH_SECRET: SECRET,
    SEED_DEMO_CONTENT: "false",
    INITIAL_ADMIN_EMAIL: "admin@restart.example",
    INITIAL_ADMIN_PASSWORD: "restart test pass phrase 42",
    SMTP_URL: smtpUrl,
    CONTACT_TO: "owner@example.com",
    CONTACT_LOCK_SECONDS: "3",
    CONTACT_POLL_MS: "200",
  });
}

const skipReason = inject("postgresSkipReason");

for (const kind of ["pglite", "postgres"] as const) {
  const skip = kind === "postgres" && skipReason !== null;
  (skip ? describe.skip : describe)(`contact delivery survives SIGKILL [${kind}]`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    });

    it("delivers a message stored by a process killed mid-send, after restart", async () => {
      let database: { DATA_DIR?: string; DATABASE_URL?: string };
      let readRow: (id: string) => Promise<{ state: string; attempts: number } | undefined>;
      const stateOf = async (db: Db, id: string) => {
        const row = await deliveryOf(db, id);
        return row && { state: row.state, attempts: row.attempts };
      };
      if (kind === "pglite") {
        const dir = tempDir("contact-restart-");
        database = { DATA_DIR: dir };
        readRow = async (id) => {
          const opened = await openDatabase({ kind: "pglite", dataDir: dir });
          try {
            return await stateOf(opened.db, id);
          } finally {
            await opened.close();
          }
        };
      } else {
        const throwaway = await createPostgresDatabase("restart");
        database = { DATABASE_URL: throwaway.url };
        const opened = await openDatabase({ kind: "postgres", url: throwaway.url, poolSize: 1 });
        cleanups.push(async () => {
          await opened.close();
          await throwaway.drop();
        });
        readRow = (id) => stateOf(opened.db, id);
      }

      // An SMTP server that takes the message and never answers: the send is in flight when we kill.
      const stuck: TestSmtpServer = await startSmtpServer({ mode: "hang" });
      cleanups.push(() => stuck.close());
      const first = await startServer(database, stuck.url);
      cleanups.push(async () => void first.child.kill("SIGKILL"));

      const dataArrived = stuck.nextData();
      const response = await fetch(`${first.url}/api/send-contact-email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: first.url },
        body: JSON.stringify({
          name: "Killed Sender",
          email: "killed@example.com",
          message: "Sent just before a crash",
          turnstileToken: await easyAltchaToken(SECRET),
        }),
      });
      expect(response.status).toBe(201);
      const { id } = (await response.json()) as { id: string };
      await dataArrived;
      first.child.kill("SIGKILL");
      await first.exited;
      await stuck.close();
      expect(stuck.received).toHaveLength(0);
      // Attempts count when a send is claimed: the killed one was the first.
      expect(await readRow(id)).toEqual({ state: "sending", attempts: 1 });

      const smtp = await startSmtpServer();
      cleanups.push(() => smtp.close());
      const second = await startServer(database, smtp.url);
      cleanups.push(async () => void second.child.kill("SIGKILL"));
      await waitFor(() => deliveredIds(smtp.received).includes(id), 20_000, "delivery after restart");
      second.child.kill("SIGTERM");
      expect(await second.exited).toBe(0);
      expect(deliveredIds(smtp.received)).toEqual([id]);
      expect(await readRow(id)).toEqual({ state: "sent", attempts: 2 });
    }, 240_000);
  });
}
