import fs from "node:fs";
import { altchaChallenge, solveAltcha } from "../helpers/altcha";
import { startServerProcess, type ServerProcess } from "../helpers/server-process";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp";
import { E2E_ADMIN } from "./constants";
import { copyOfSeededDataDir } from "./helpers/server";
import { expect, test, type Page } from "./helpers/test";
import { expectNoSeriousAxeViolations, gotoHydrated } from "./helpers/ui";

/**
 * A new owner's site as `npm start` makes it: no SMTP_URL and no settings. Public forms say honestly that
 * email is not available, the admin says why on every page, and entering the SMTP settings of a real
 * (local) SMTP server makes "Send a test email" arrive.
 */
test.describe.configure({ mode: "serial", timeout: 120_000 });

let smtp: TestSmtpServer;
let server: ServerProcess;
let dataDir = "";

test.beforeAll(async () => {
  test.setTimeout(180_000);
  smtp = await startSmtpServer();
  dataDir = copyOfSeededDataDir("e2e-mail-setup-");
  server = await startServerProcess({ DATA_DIR: dataDir, LOGIN_RATE_LIMIT_PER_IP: "1000" });
});

test.afterAll(async () => {
  await server.stop();
  await smtp.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function signInAsOwner(page: Page): Promise<void> {
  const challenge = altchaChallenge.parse(await (await page.request.get(`${server.url}/api/verification/challenge`)).json());
  const response = await page.request.post(`${server.url}/api/auth/login`, {
    data: { ...E2E_ADMIN, verificationToken: await solveAltcha(challenge) },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

test("without mail the Subscribe form is honest and the admin shows the banner; SMTP settings make the test email arrive", async ({
  page,
}) => {
  await page.goto(`${server.url}/subscribe`);
  await expect(page.getByText("Email subscriptions are not available yet.").first()).toBeVisible();
  await expect(page.getByRole("button", { name: /^Subscribe/ })).toHaveCount(0);

  await signInAsOwner(page);
  await gotoHydrated(page, `${server.url}/admin`);
  const banner = page.getByTestId("mail-banner");
  await expect(banner).toContainText(
    "Email isn't set up: subscriptions, password resets, booking emails and contact forwarding are paused",
  );
  await banner.getByRole("link", { name: "Set up email" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Email" })).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  await page.getByLabel("Host").fill("127.0.0.1");
  await page.getByLabel("Port").fill(String(smtp.port));
  await page.getByLabel("Security").selectOption("none");
  await page.getByLabel("Sender address").fill("site@mail-setup.example");
  await page.getByRole("button", { name: "Save email settings" }).click();
  await expect(page.getByText("Email is set up.")).toBeVisible();
  await expect(page.getByTestId("mail-banner")).toHaveCount(0);

  const to = `owner-${Date.now()}@mail-setup.example`;
  await page.getByLabel("Send to").fill(to);
  await page.getByRole("button", { name: "Send a test email" }).click();
  await expect(page.getByTestId("test-email-answer")).toContainText(`Sent to ${to}. The server answered:`);
  await expect.poll(() => smtp.received.filter((mail) => mail.to.includes(to)).length).toBe(1);

  // The public form is offered now.
  await page.goto(`${server.url}/subscribe`);
  await expect(page.getByText("Email subscriptions are not available yet.")).toHaveCount(0);
});
