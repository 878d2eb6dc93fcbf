import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { E2E_ADMIN } from "./tests/e2e/constants";

const PORT = Number(process.env.E2E_PORT ?? 3100);
// A fresh data directory per run: the production server seeds it like a first start.
const dataDir = process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), "e2e-data-"));

// The e2e SMTP server (tests/e2e/global-setup.ts): its port and the directory it writes messages to.
// Set on process.env so worker processes, which load this file again, see the same values.
process.env.E2E_SMTP_PORT ??= String(PORT + 1000);
process.env.E2E_MAIL_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "e2e-mail-"));

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const launchOptions = {
  executablePath: fs.existsSync(chromiumPath) ? chromiumPath : undefined,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

export default defineConfig({
  testDir: "./tests/e2e",
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  timeout: 60_000,
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: "retain-on-failure",
    launchOptions,
  },
  projects: [
    { name: "desktop", use: { ...devices["Desktop Chrome"], launchOptions } },
    { name: "mobile", use: { ...devices["Pixel 7"], launchOptions } },
  ],
  webServer: {
    command: "tsx tests/e2e/prepare.ts && node server.js",
    url: `http://localhost:${PORT}/healthz`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(PORT),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      INITIAL_ADMIN_EMAIL: E2E_ADMIN.email,
      INITIAL_ADMIN_PASSWORD: E2E_ADMIN.password,
      PUBLIC_URL: `http://localhost:${PORT}`,
      SMTP_URL: `smtp://127.0.0.1:${process.env.E2E_SMTP_PORT}`,
      // Every spec signs in from 127.0.0.1; the per-account limit stays at its normal value.
      LOGIN_RATE_LIMIT_PER_IP: "1000",
      // The specs sign the same admin in dozens of times an hour; the per-account slowdown is tested in vitest.
      LOGIN_ACCOUNT_SLOWDOWN_AFTER: "100000",
      // Every e2e request comes from 127.0.0.1; the per-IP contact limit itself is tested in vitest.
      CONTACT_RATE_LIMIT_PER_10_MIN: "50",
    },
  },
});
