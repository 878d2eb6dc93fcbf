import { expect, test } from "./helpers/test";
import { E2E_ADMIN } from "./constants";
import { createStaffAccount, loginThroughEndpoint } from "./helpers/auth";
import { waitForMail } from "./helpers/mailbox";
import { expectNoSeriousAxeViolations, gotoHydrated, toastWith } from "./helpers/ui";
import { decodeQuotedPrintable } from "../helpers/smtp";

test("Account → Email: a confirmation link changes the sign-in email; the old address no longer signs in, the new one does", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const account = await createStaffAccount(page, E2E_ADMIN, "email-change", testInfo.project.name);
  const next = `changed-${Date.now()}-${testInfo.project.name}@example.com`;
  await loginThroughEndpoint(page, account);
  await gotoHydrated(page, "/admin/account");
  await expect(page.getByText(`You sign in as ${account.email}.`)).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  // Clear errors: a wrong password, a taken address.
  const form = page.locator("form#email-change");
  await form.getByLabel("New email").fill(next);
  await form.getByLabel("Current password").fill("not the password");
  await form.getByRole("button", { name: "Send confirmation link" }).click();
  await expect(form.locator("#email-change-currentPassword-error")).toHaveText("Your current password is not correct.");
  await form.getByLabel("New email").fill(E2E_ADMIN.email);
  await form.getByLabel("Current password").fill(account.password);
  await form.getByRole("button", { name: "Send confirmation link" }).click();
  await expect(form.getByText(`A user with email ${E2E_ADMIN.email} already exists`).first()).toBeVisible();

  const since = Date.now();
  await form.getByLabel("New email").fill(next);
  await form.getByLabel("Current password").fill(account.password);
  await form.getByRole("button", { name: "Send confirmation link" }).click();
  await expect(toastWith(page, "Check your inbox")).toBeVisible();
  await expect(page.getByTestId("pending-email-change")).toContainText(next);

  const mail = await waitForMail(next, since, 30_000);
  expect(mail.subject).toBe("Confirm your new sign-in email");
  const link = /(http\S+\/account\/confirm-email\?token=[\w%-]+)/.exec(decodeQuotedPrintable(mail.text))?.[1];
  expect(link).toBeTruthy();

  // Opened in another browser, signed out: the button applies the change.
  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  await other.goto(link ?? "");
  await expectNoSeriousAxeViolations(other);
  await other.getByRole("button", { name: "Confirm new email" }).click();
  await expect(other.getByText(`Your sign-in email is now ${next}. Sign in with it from now on.`)).toBeVisible();
  await elsewhere.close();

  // The old address gets a notice; it no longer signs in, the new one does.
  expect(decodeQuotedPrintable((await waitForMail(account.email, since, 30_000)).text)).toContain(`changed to ${next}`);
  await page.context().clearCookies();
  await expect(loginThroughEndpoint(page, account)).rejects.toThrow(/401/);
  await loginThroughEndpoint(page, { email: next, password: account.password });
  await page.goto("/admin/account");
  await expect(page.getByText(`You sign in as ${next}.`)).toBeVisible();
});
