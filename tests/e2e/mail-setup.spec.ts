import { openDatabase } from "~/server/db/client.server";
import { subscribers } from "~/server/db/schema.server";
import { altchaChallenge, solveAltcha } from "../helpers/altcha";
import { parseMail } from "../helpers/smtp";
import { E2E_ADMIN } from "./constants";
import { linkIn } from "./helpers/mailbox";
import { withOwnServer } from "./helpers/own-server";
import { expect, test, type Page } from "./helpers/test";
import { expectNoSeriousAxeViolations, gotoHydrated } from "./helpers/ui";

/**
 * A new owner's site as `npm start` makes it: no SMTP_URL and no settings. Public forms say honestly that
 * email is not available, the admin says why on every page, and entering the SMTP settings of a real
 * (local) SMTP server makes "Send a test email" arrive and lets the owner re-send the confirmation a
 * pending subscriber never got.
 */
test.describe.configure({ mode: "serial", timeout: 120_000 });

/**
 * An address that subscribed while the site could not send (the public form is withheld without mail,
 * so it comes from before: an older version, or mail that stopped working): pending, never confirmed.
 */
const pendingEmail = `pending-${Date.now()}@mail-setup.example`;

const own = withOwnServer(
  "e2e-mail-setup-",
  () => ({ LOGIN_RATE_LIMIT_PER_IP: "1000" }),
  async (dataDir) => {
    const database = await openDatabase({ kind: "pglite", dataDir });
    try {
      await database.db.insert(subscribers).values({ email: pendingEmail, categories: ["Fun"], state: "pending" });
    } finally {
      await database.close();
    }
  },
);

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

test("a pending subscriber is re-sent the confirmation once mail works, and its link confirms", async ({ page }) => {
  await signInAsOwner(page);
  await gotoHydrated(page, `${own.server.url}/admin/subscribers`);
  const row = page.getByTestId("subscriber-row").filter({ hasText: pendingEmail });
  await expect(row).toContainText("Pending");

  // The first test set email up; the button queues one confirmation per pending address.
  await gotoHydrated(page, `${own.server.url}/admin/email`);
  const resend = page.getByRole("button", { name: "Re-send confirmation emails" });
  await resend.click();
  await expect(page.getByText("1 pending subscriber will get a new confirmation email.")).toBeVisible();
  await expect.poll(() => own.smtp.received.filter((mail) => mail.to.includes(pendingEmail)).length, { timeout: 30_000 }).toBe(1);
  const [received] = own.smtp.received.filter((mail) => mail.to.includes(pendingEmail));
  const confirmation = parseMail(received!);
  expect(confirmation.subject).toMatch(/^Confirm your subscription to /);

  // Each address once per 24 hours: pressing again queues nothing.
  await resend.click();
  await expect(page.getByText("0 pending subscribers will get a new confirmation email.")).toBeVisible();

  // The visitor opens the link and confirms.
  const visitor = await page.context().browser()!.newContext();
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(linkIn(confirmation.text, "/subscribe/confirm?token="));
  await visitorPage.getByRole("button", { name: "Confirm subscription" }).click();
  await expect(visitorPage.getByText("You're subscribed.")).toBeVisible();
  await visitor.close();

  await gotoHydrated(page, `${own.server.url}/admin/subscribers`);
  await expect(row).toContainText("Confirmed");
  expect(own.smtp.received.filter((mail) => mail.to.includes(pendingEmail))).toHaveLength(1);
});
