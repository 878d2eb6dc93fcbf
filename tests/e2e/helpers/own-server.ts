import fs from "node:fs";
import { startServerProcess, type ServerProcess } from "../../helpers/server-process";
import { startSmtpServer, type TestSmtpServer } from "../../helpers/smtp";
import { copyOfSeededDataDir } from "./server";
import { test } from "./test";

export interface OwnServer {
  readonly server: ServerProcess;
  readonly smtp: TestSmtpServer;
}

/**
 * A production server of the calling spec's own, on a copy of the seeded data, beside a local SMTP catcher:
 * started before the spec's (or describe block's) tests and removed after them. `env` gets the catcher, so a
 * spec chooses whether the server mails through it (SMTP_URL) or starts with no mail set up. `prepare` may
 * write into the data directory before the server starts (data from an earlier version, say).
 */
export function withOwnServer(
  prefix: string,
  env: (smtp: TestSmtpServer) => Record<string, string>,
  prepare?: (dataDir: string) => Promise<void>,
): OwnServer {
  const own = { dataDir: "" } as { server: ServerProcess; smtp: TestSmtpServer; dataDir: string };
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    own.smtp = await startSmtpServer();
    own.dataDir = copyOfSeededDataDir(prefix);
    await prepare?.(own.dataDir);
    own.server = await startServerProcess({ DATA_DIR: own.dataDir, ...env(own.smtp) });
  });
  test.afterAll(async () => {
    try {
      await own.server.stop();
      await own.smtp.close();
    } finally {
      // Also when the server never started: the copy was made before it.
      if (own.dataDir) fs.rmSync(own.dataDir, { recursive: true, force: true });
    }
  });
  return own;
}
