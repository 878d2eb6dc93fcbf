import { afterAll, beforeAll } from "vitest";
import { resetEnvForTests } from "~/server/env.server";
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from "./smtp";

export interface SuiteMailbox {
  /** Every message the stand-in accepted so far. */
  readonly received: ReceivedMail[];
}

/**
 * Starts the SMTP stand-in for the enclosing suite with SMTP_URL pointing at it; SMTP_URL is put
 * back and the server closed after the suite. (Not in smtp.ts, which the e2e setup loads without vitest.)
 */
export function useSmtpServer(): SuiteMailbox {
  let server: TestSmtpServer | undefined;
  const saved = process.env.SMTP_URL;
  beforeAll(async () => {
    server = await startSmtpServer();
    process.env.SMTP_URL = server.url;
    resetEnvForTests();
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.SMTP_URL;
    else process.env.SMTP_URL = saved;
    resetEnvForTests();
    await server?.close();
  });
  return {
    get received() {
      if (!server) throw new Error("the SMTP stand-in starts in beforeAll");
      return server.received;
    },
  };
}

/** The messages the suite's stand-in accepted for one address, oldest first. */
export function mailsTo(mailbox: SuiteMailbox, email: string): ReceivedMail[] {
  return mailbox.received.filter((m) => m.to.includes(email));
}
