import { expect, test, type Page } from "./helpers/test";
import { E2E_ADMIN } from "./constants";
import { loginAs } from "./helpers/auth";
import { waitForMail } from "./helpers/mailbox";
import { adminSidebar, completeVerification, expectNoSeriousAxeViolations, gotoHydrated, toastWith } from "./helpers/ui";

/** Sends the open Reset Password form for `email`; returns when it was sent (for waitForMail). */
async function sendResetLink(page: Page, email: string): Promise<number> {
  await page.getByLabel("Email").fill(email);
  const send = page.getByRole("button", { name: "Send Reset Link" });
  await completeVerification(page, send);
  const since = Date.now();
  await send.click();
  await expect(toastWith(page, "Check your email!", "We've sent you a password reset link.")).toBeVisible();
  return since;
}

test("admin login: show/hide password, a failed attempt, then success through the verification widget", async ({ page }) => {
  // Hydrated first, so the fields lose focus (below) with the form's script running.
  await gotoHydrated(page, "/auth");
  await expect(page.getByRole("heading", { name: "Admin Login" })).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  const submit = page.getByRole("button", { name: "Sign In", exact: true });
  const password = page.getByLabel("Password", { exact: true });

  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await password.fill("not the right password");
  await expect(password).toHaveAttribute("type", "password");
  await page.getByRole("button", { name: "Show password" }).click();
  await expect(password).toHaveAttribute("type", "text");
  await page.getByRole("button", { name: "Hide password" }).click();
  await expect(password).toHaveAttribute("type", "password");

  await completeVerification(page, submit);
  // Email and Password lost focus before the verification was done: only sending the form asks for it
  // (Conform's field checks are submit events too).
  // Counted at once: toHaveCount(0) would wait for such a toast to time out.
  expect(await toastWith(page, "Verification required").count()).toBe(0);
  await submit.click();
  await expect(toastWith(page, "Error", "Invalid login credentials")).toBeVisible();
  // The token was used up: the widget starts over and the button waits for a new one.
  await expect(submit).toBeDisabled();

  await password.fill(E2E_ADMIN.password);
  await completeVerification(page, submit);
  await submit.click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(toastWith(page, "Welcome back!")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();

  // An existing session on /auth goes to /admin.
  await page.goto("/auth");
  await expect(page).toHaveURL(/\/admin$/);
});

test("password reset by email, update with a mismatch first, sign in with the new password, log out", async ({ page, browser }) => {
  // Four proof-of-work solves and two sign-ins: on a busy machine this takes longer than one minute.
  test.slow();
  // A dedicated account, created by the admin in the Users screen, so seeded passwords stay as they are.
  const email = `reset-${Date.now()}-${test.info().project.name}@example.com`;
  const oldPassword = "first temporary phrase 1";
  const newPassword = "brand new secret phrase 2";
  await loginAs(page, E2E_ADMIN);
  await page.goto("/admin/users");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Temporary password (optional)").fill(oldPassword);
  await page.getByLabel("Role", { exact: true }).selectOption("moderator");
  await page.getByRole("button", { name: "Create User" }).click();
  await expect(page.getByRole("cell", { name: email, exact: true })).toBeVisible();
  await page.context().clearCookies();

  // A session of the account elsewhere, which the password change must end.
  const otherContext = await browser.newContext();
  const otherPage = await otherContext.newPage();
  await loginAs(otherPage, { email, password: oldPassword });
  await otherPage.goto("/admin");
  await expect(otherPage.getByRole("heading", { name: "Dashboard" })).toBeVisible();

  await page.goto("/auth");
  await page.getByRole("button", { name: "Forgot password?" }).click();
  await expect(page.getByRole("heading", { name: "Reset Password" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Back to login" })).toBeVisible();
  const since = await sendResetLink(page, email);

  const mail = await waitForMail(email, since);
  const link = /https?:\/\/\S+\/auth#type=recovery&token=[\w%-]+/.exec(mail.text)?.[0];
  expect(link, mail.text).toBeTruthy();
  await page.goto(link ?? "");
  await expect(page.getByRole("heading", { name: "Update Password" })).toBeVisible();
  // The fragment (and the token in it) is cleared from the address bar.
  await expect.poll(() => new URL(page.url()).hash).toBe("");

  const update = page.getByRole("button", { name: "Update Password" });
  await page.getByLabel("New Password").fill(newPassword);
  await page.getByLabel("Confirm Password").fill(`${newPassword}x`);
  await completeVerification(page, update);
  await update.click();
  await expect(toastWith(page, "Passwords don't match", "Please make sure both passwords are the same.")).toBeVisible();

  await page.getByLabel("Confirm Password").fill(newPassword);
  await update.click();
  await expect(
    toastWith(page, "Password updated!", "Your password has been successfully changed. Please log in with your new password."),
  ).toBeVisible();
  await expect(page.getByRole("heading", { name: "Admin Login" })).toBeVisible();

  // Every other session of the account ended.
  await otherPage.goto("/admin");
  await expect(otherPage).toHaveURL(/\/auth$/);
  await otherContext.close();

  // The link works once.
  await page.goto(link ?? "");
  await page.getByLabel("New Password").fill("another new phrase 33");
  await page.getByLabel("Confirm Password").fill("another new phrase 33");
  await completeVerification(page, update);
  await update.click();
  await expect(toastWith(page, "Error", "invalid or has expired")).toBeVisible();

  // The old password no longer works; the new one does.
  await page.goto("/auth");
  await expect(loginAs(page, { email, password: oldPassword })).rejects.toThrow(/401/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(newPassword);
  const signIn = page.getByRole("button", { name: "Sign In", exact: true });
  await completeVerification(page, signIn);
  await signIn.click();
  await expect(page).toHaveURL(/\/admin$/);

  const sidebar = await adminSidebar(page);
  await sidebar.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(toastWith(page, "Logged out", "You have been successfully logged out")).toBeVisible();
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/auth$/);
});

test("a reset request for an unknown address gets the same answer and sends nothing", async ({ page }) => {
  const email = `nobody-${Date.now()}@example.com`;
  await page.goto("/auth");
  await page.getByRole("button", { name: "Forgot password?" }).click();
  const since = await sendResetLink(page, email);
  await expect(waitForMail(email, since, 2000)).rejects.toThrow(/no email/);
});

test("a recovery fragment on any page leads to Update Password; a forged token is refused", async ({ page }) => {
  await page.goto("/#type=recovery&token=forged-token-that-was-never-issued");
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole("heading", { name: "Update Password" })).toBeVisible();
  const update = page.getByRole("button", { name: "Update Password" });
  await page.getByLabel("New Password").fill("some new phrase 123");
  await page.getByLabel("Confirm Password").fill("some new phrase 123");
  await completeVerification(page, update);
  await update.click();
  await expect(toastWith(page, "Error", "This password reset link is invalid or has expired.")).toBeVisible();
  // Still in recovery mode after the failure, with the widget reset.
  await expect(page.getByRole("heading", { name: "Update Password" })).toBeVisible();
  await expect(update).toBeDisabled();
});
