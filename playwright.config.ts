import fs from "node:fs";
import { defineConfig, devices } from "@playwright/test";

// Worker N of this run serves on E2E_PORT + N, its SMTP server on that + 1000 (tests/e2e/helpers/server.ts).
process.env.E2E_PORT ??= "3100";

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

const MOBILE_SPECS = [
  "admin",
  "admin-defects",
  "admin-shell",
  "admin-users",
  "admin-writing",
  "blog",
  "booking",
  "contact",
  "empty-site",
  "islands",
  "post-images",
  "public-site",
  "readers",
  "site-identity",
  "smoke",
].map((name) => `${name}.spec.ts`);

export default defineConfig({
  testDir: "./tests/e2e",
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: false,
  // Each worker has its own production server and data (tests/e2e/helpers/test.ts): one per core.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  timeout: 60_000,
  // Two workers share the machine's cores: an assertion waits a little longer before it gives up.
  expect: { timeout: 10_000 },
  use: {
    trace: "retain-on-failure",
    launchOptions,
  },
  projects: [
    { name: "desktop", use: { ...devices["Desktop Chrome"], launchOptions } },
    // A phone runs the specs about what a phone changes: layout, menus, drawers, reading, the visitor's
    // forms and booking. Flows that are the same on any screen (mail set-up, revisions, passkeys,
    // imports…) run once, on desktop, to keep the suite within its time budget.
    // Within those, a test tagged SAME_ON_PHONES (tests/e2e/constants.ts) runs on desktop only.
    { name: "mobile", use: { ...devices["Pixel 7"], launchOptions }, testMatch: MOBILE_SPECS, grepInvert: /@same-on-phones/ },
  ],
});
