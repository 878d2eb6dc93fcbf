import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./helpers/test";
import { E2E_ADMIN } from "./constants";
import { loginAs, solveVerification } from "./helpers/auth";
import { linkIn, waitForMail } from "./helpers/mailbox";
import { expectNoSeriousAxeViolations } from "./helpers/ui";
import { decodeQuotedPrintable } from "../helpers/smtp";

const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

/** Publishes a post through the editor's own form post (as the signed-in admin). */
async function publishPost(request: APIRequestContext, title: string): Promise<void> {
  const response = await request.post("/7fs/Fun/new", {
    form: { title, content: "A post for subscribers.", excerpt: `Excerpt of ${title}`, published: "on", media: "[]" },
    maxRedirects: 0,
  });
  expect(response.status(), await response.text()).toBe(302);
}

test("subscription cycle: subscribe → confirm → publish → one email → one-click unsubscribe → nothing more", async ({ page, browser }) => {
  test.setTimeout(180_000);
  const email = `reader-${unique()}@subscribers.example`;
  const control = `control-${unique()}@subscribers.example`;

  // Subscribe on a category page, every category ticked by default.
  await page.goto("/7fs/Fun");
  const form = page.getByRole("form", { name: "Subscribe" });
  await expect(form.getByRole("checkbox", { name: "Fun" })).toBeChecked();
  await expect(form.getByRole("checkbox", { name: "Figurehead" })).toBeChecked();
  await form.getByLabel("Email").fill(email);
  const submit = form.getByRole("button", { name: "Subscribe" });
  await expect(submit).toBeDisabled();
  await form.getByTestId("human-verification").getByRole("checkbox").click();
  await expect(submit).toBeEnabled({ timeout: 45_000 });
  const since = Date.now();
  await submit.click();
  await expect(page.getByRole("status").filter({ hasText: "Check your inbox" })).toBeVisible();
  // The toaster is left out like in the other specs: a toast caught mid-animation fails contrast.
  await expectNoSeriousAxeViolations(page, { exclude: ["[data-sonner-toaster]"] });

  // The confirmation link shows a button; pressing it confirms.
  const confirmation = await waitForMail(email, since);
  await page.goto(linkIn(confirmation.text, "/subscribe/confirm?token="));
  await page.getByRole("button", { name: "Confirm subscription" }).click();
  await expect(page.getByText("You're subscribed.")).toBeVisible();

  // A second, confirmed subscriber (through the same endpoints) tells when the last post's emails went out.
  const token = await solveVerification(page.request);
  const subscribed = await page.request.post("/subscribe", { form: { email: control, categories: "Fun", verificationToken: token } });
  expect(subscribed.ok()).toBe(true);
  const controlLink = new URL(linkIn((await waitForMail(control, since)).text, "/subscribe/confirm?token="));
  const confirmed = await page.request.post("/subscribe/confirm", { form: { token: controlLink.searchParams.get("token") ?? "" } });
  expect(confirmed.ok()).toBe(true);

  // Publishing a Fun post sends it to each subscriber once.
  const admin = await browser.newContext();
  const adminPage = await admin.newPage();
  await loginAs(adminPage, E2E_ADMIN);
  const firstTitle = `Subscribers first ${unique()}`;
  const beforeFirst = Date.now();
  await publishPost(adminPage.request, firstTitle);
  const post = await waitForMail(email, beforeFirst, 30_000);
  expect(post.subject).toBe(firstTitle);
  expect(decodeQuotedPrintable(post.text)).toContain(`Excerpt of ${firstTitle}`);
  await waitForMail(control, beforeFirst, 30_000);

  // The emailed unsubscribe link: GET asks, the button unsubscribes.
  await page.goto(linkIn(post.text, "/unsubscribe?token="));
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(page.getByText("You're unsubscribed.")).toBeVisible();

  // The next post reaches the control subscriber only.
  const beforeSecond = Date.now();
  await publishPost(adminPage.request, `Subscribers second ${unique()}`);
  await waitForMail(control, beforeSecond, 30_000);
  await expect(waitForMail(email, beforeSecond, 1)).rejects.toThrow(/no email/);

  // The admin sees them, with their states.
  await adminPage.goto("/admin/subscribers");
  await expect(adminPage.getByRole("heading", { level: 1, name: "Subscribers" })).toBeVisible();
  await expect(adminPage.getByTestId("subscriber-row").filter({ hasText: email })).toContainText("Unsubscribed");
  await expect(adminPage.getByTestId("subscriber-row").filter({ hasText: control })).toContainText("Confirmed");
  await expectNoSeriousAxeViolations(adminPage, { exclude: ["[data-sonner-toaster]"] });
  await admin.close();
});
