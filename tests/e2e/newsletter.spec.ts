import type { APIRequestContext, Page } from "@playwright/test";
import { request as playwrightRequest } from "@playwright/test";
import { expect, test } from "./helpers/test";
import { E2E_ADMIN } from "./constants";
import { loginAs, solveVerification } from "./helpers/auth";
import { linkIn, mailsTo, waitForMail } from "./helpers/mailbox";
import { decodeQuotedPrintable } from "../helpers/smtp";

const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

/** A confirmed Fun subscriber, through the public endpoints. */
async function confirmedSubscriber(request: APIRequestContext, email: string): Promise<void> {
  const since = Date.now();
  const subscribed = await request.post("/subscribe", {
    form: { email, categories: "Fun", verificationToken: await solveVerification(request) },
  });
  expect(subscribed.ok()).toBe(true);
  const link = new URL(linkIn((await waitForMail(email, since)).text, "/subscribe/confirm?token="));
  const confirmed = await request.post("/subscribe/confirm", { form: { token: link.searchParams.get("token") ?? "" } });
  expect(confirmed.ok()).toBe(true);
}

/** Creates a Fun post in the editor, published now, with the given choice. */
async function publishInEditor(page: Page, title: string, choice: "Publish" | "Publish and email subscribers"): Promise<void> {
  await page.goto("/7fs/Fun/new");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Content").fill(`The body of ${title}.`);
  await page.getByLabel("Excerpt (optional)").fill(`Excerpt of ${title}`);
  await page.getByLabel("Featured Image URL (optional)").fill("https://images.example/lighthouse.png");
  await page.getByLabel("Alt text", { exact: true }).first().fill("A lighthouse at dusk");
  await page.getByRole("switch", { name: "Publish immediately" }).click();
  await page.getByRole("radio", { name: choice, exact: true }).check();
  await page.getByRole("button", { name: "Create Post" }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible({ timeout: 30_000 });
}

test("'Publish and email subscribers' sends each subscriber one email with one-click unsubscribe; 'Publish' sends nothing", async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const first = `first-${unique()}@newsletter.example`;
  const second = `second-${unique()}@newsletter.example`;
  await confirmedSubscriber(page.request, first);
  await confirmedSubscriber(page.request, second);

  const admin = await browser.newContext();
  const adminPage = await admin.newPage();
  await loginAs(adminPage, E2E_ADMIN);
  const since = Date.now();
  const emailed = `Emailed post ${unique()}`;
  await publishInEditor(adminPage, emailed, "Publish and email subscribers");
  const mail = await waitForMail(first, since, 60_000);
  await waitForMail(second, since, 60_000);
  expect(mail.subject).toBe(emailed);
  const body = decodeQuotedPrintable(mail.text);
  expect(body).toContain('alt="A lighthouse at dusk"');
  expect(body).toContain("Read on the site");
  expect(body).toMatch(/Content-Type: text\/plain/i);
  expect(mail.headers).toMatch(/^List-Unsubscribe: <http[^>]+\/unsubscribe\?token=[^>]+>/im);
  expect(mail.headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/im);

  // The editor tells when it went out, and offers no second sending.
  await adminPage.goto(`${new URL(adminPage.url()).pathname}/edit`);
  await expect(adminPage.getByText(/Emailed to \d+ subscribers? on /)).toBeVisible();
  await expect(adminPage.getByRole("radio", { name: "Publish and email subscribers" })).toHaveCount(0);

  // One POST with no session and no Origin, as a mail provider sends it, unsubscribes.
  const unsubscribeUrl = /^List-Unsubscribe: <([^>]+)>/im.exec(mail.headers)?.[1] ?? "";
  const provider = await playwrightRequest.newContext();
  const answer = await provider.post(unsubscribeUrl, { form: { "List-Unsubscribe": "One-Click" }, maxRedirects: 0 });
  expect(answer.status()).toBeLessThan(400);
  await provider.dispose();

  // 'Publish' sends nothing; the next emailed post reaches the subscriber still subscribed only.
  const quiet = `Quiet post ${unique()}`;
  await publishInEditor(adminPage, quiet, "Publish");
  const after = Date.now();
  const third = `Third post ${unique()}`;
  await publishInEditor(adminPage, third, "Publish and email subscribers");
  expect((await waitForMail(second, after, 60_000)).subject).toBe(third);
  expect(mailsTo(first, since).map((m) => m.subject)).toEqual([emailed]);
  expect(mailsTo(second, since).map((m) => m.subject)).toEqual([emailed, third]);

  await adminPage.goto("/admin/subscribers");
  await expect(adminPage.getByTestId("subscriber-row").filter({ hasText: first })).toContainText("Unsubscribed");
  await admin.close();
});
