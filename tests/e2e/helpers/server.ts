import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseMail, startSmtpServer, type TestSmtpServer } from "../../helpers/smtp";
import { startServerProcess } from "../../helpers/server-process";
import { E2E_ADMIN } from "../constants";

/** Where global setup leaves the seeded data directory each worker's server starts from a copy of. */
const TEMPLATE_DIR_VARIABLE = "E2E_TEMPLATE_DATA_DIR";

/** The first port of this run: worker N serves on E2E_PORT + N and its SMTP server on that + 1000. */
function basePort(): number {
  return Number(process.env.E2E_PORT ?? 3100);
}

/** The environment every e2e server runs with, the seeded accounts' passwords and the test limits. */
function serverEnv(port: number, dataDir: string): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    INITIAL_ADMIN_EMAIL: E2E_ADMIN.email,
    INITIAL_ADMIN_PASSWORD: E2E_ADMIN.password,
    PUBLIC_URL: `http://localhost:${port}`,
    SMTP_URL: `smtp://127.0.0.1:${port + 1000}`,
    // Every spec signs in from 127.0.0.1; the per-account limit stays at its normal value.
    LOGIN_RATE_LIMIT_PER_IP: "1000",
    // The specs sign the same admin in dozens of times an hour; the per-account slowdown is tested in vitest.
    LOGIN_ACCOUNT_SLOWDOWN_AFTER: "100000",
    // Every e2e request comes from 127.0.0.1; the per-IP contact limit itself is tested in vitest.
    CONTACT_RATE_LIMIT_PER_10_MIN: "50",
    BOOKING_RATE_LIMIT_PER_HOUR: "50",
    // Two workers and their browsers share two cores: a smaller proof of work keeps the widget's
    // solve time far below the specs' waits (the widget and the server check it the same way).
    ALTCHA_MAX_NUMBER: "10000",
  };
}

/**
 * Global setup: migrates and seeds one data directory like a first start (tests/e2e/prepare.ts), once
 * per run. Workers copy it, so none pays for initdb, migrations and seeding again.
 */
export function prepareTemplateDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-data-"));
  try {
    execFileSync(path.resolve("node_modules/.bin/tsx"), ["tests/e2e/prepare.ts"], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "production", LOG_LEVEL: "warn", ...serverEnv(basePort(), dir) },
      stdio: ["ignore", "ignore", "inherit"],
    });
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  process.env[TEMPLATE_DIR_VARIABLE] = dir;
  return dir;
}

/** A fresh copy of the seeded data directory (made by global setup), for a server of one's own. */
export function copyOfSeededDataDir(prefix: string): string {
  const template = process.env[TEMPLATE_DIR_VARIABLE];
  if (!template) throw new Error(`${TEMPLATE_DIR_VARIABLE} is not set (see tests/e2e/global-setup.ts)`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.cpSync(template, dataDir, { recursive: true });
  return dataDir;
}

export interface E2eServer {
  /** What the browser uses, http://localhost:<port>: the server's PUBLIC_URL. */
  url: string;
  /** Where this server's emails land as JSON files (see helpers/mailbox.ts). */
  mailDir: string;
  stop: () => Promise<void>;
}

/**
 * One production server per Playwright worker, on its own copy of the seeded data and with its own SMTP
 * catcher: workers run specs side by side without seeing each other's writes or emails.
 */
export async function startE2eServer(parallelIndex: number): Promise<E2eServer> {
  const port = basePort() + parallelIndex;
  const dataDir = copyOfSeededDataDir(`e2e-data-${parallelIndex}-`);
  const mailDir = fs.mkdtempSync(path.join(os.tmpdir(), `e2e-mail-${parallelIndex}-`));
  const removeDirs = () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(mailDir, { recursive: true, force: true });
  };
  let counter = 0;
  let smtp: TestSmtpServer | undefined;
  try {
    smtp = await startSmtpServer({
      port: port + 1000,
      onMessage: (mail) => {
        counter += 1;
        fs.writeFileSync(path.join(mailDir, `${Date.now()}-${counter}.json`), JSON.stringify(parseMail(mail)));
      },
    });
    const server = await startServerProcess(serverEnv(port, dataDir), { port });
    server.child.stderr?.on("data", (chunk: Buffer) => process.stderr.write(chunk));
    const mail = smtp;
    return {
      url: `http://localhost:${port}`,
      mailDir,
      stop: async () => {
        try {
          await server.stop();
          await mail.close();
        } finally {
          removeDirs();
        }
      },
    };
  } catch (error) {
    await smtp?.close();
    removeDirs();
    throw error;
  }
}
