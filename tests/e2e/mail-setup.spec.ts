import { altchaChallenge, solveAltcha } from "../helpers/altcha";
import { E2E_ADMIN } from "./constants";
import { withOwnServer } from "./helpers/own-server";
import { expect, test, type Page } from "./helpers/test";
import { expectNoSeriousAxeViolations, gotoHydrated } from "./helpers/ui";

/**
 * A new owner's site as `npm start` makes it: no SMTP_URL and no settings. Public forms say honestly that
 * email is not available, the admin says why on every page, and entering the SMTP settings of a real
 * (local) SMTP server makes "Send a test email" arrive.
 */
test.describe.configure({ mode: "serial", timeout: 120_000 });

const own = withOwnServer("e2e-mail-setup-", () => ({ LOGIN_RATE_LIMIT_PER_IP: "1000" }));

async function signInAsOwner(page: Page): Promise<void> {
  const challenge = altchaChallenge.parse(await (await page.request.get(`${own.server.url}/api/verification/challenge`)).json());
  const response = await page.request.post(`${own.server.url}/api/auth/login`, {
    data: { ...E2E_ADMIN, verificationToken: await solveAltcha(challenge) },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

test("without mail the Subscribe form is honest and the admin shows the banner; SMTP settings make the test email arrive", async ({
  page,
}) => {
  await page.goto(`${own.server.url}/subscribe`);
  await expect(page.getByText("Email subscriptions are not available yet.").first()).toBeVisible();
  await expect(page.getByRole("button", { name: /^Subscribe/ })).toHaveCount(0);

  await signInAsOwner(page);
  await gotoHydrated(page, `${own.server.url}/admin`);
  const banner = page.getByTestId("mail-banner");
  await expect(banner).toContainText(
    "Email isn't set up: subscriptions, password resets, booking emails and contact forwarding are paused",
  );
  await banner.getByRole("link", { name: "Set up email" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Email" })).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  await page.getByLabel("Host").fill("127.0.0.1");
  await page.getByLabel("Port").fill(String(own.smtp.port));
  await page.getByLabel("Security").selectOption("none");
  await page.getByLabel("Sender address").fill("site@mail-setup.example");
  await page.getByRole("button", { name: "Save email settings" }).click();
  await expect(page.getByText("Email is set up.")).toBeVisible();
  await expect(page.getByTestId("mail-banner")).toHaveCount(0);

  const to = `owner-${Date.now()}@mail-setup.example`;
  await page.getByLabel("Send to").fill(to);
  await page.getByRole("button", { name: "Send a test email" }).click();
  await expect(page.getByTestId("test-email-answer")).toContainText(`Sent to ${to}. The server answered:`);
  await expect.poll(() => own.smtp.received.filter((mail) => mail.to.includes(to)).length).toBe(1);

  // The public form is offered now.
  await page.goto(`${own.server.url}/subscribe`);
  await expect(page.getByText("Email subscriptions are not available yet.")).toHaveCount(0);
});
