import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { altchaChallenge, solveAltcha } from "../../helpers/altcha";
import { adminSidebar, completeVerification } from "./ui";

/** Solves the site's ALTCHA challenge the way the widget does, for requests made outside a page. */
export async function solveVerification(request: APIRequestContext): Promise<string> {
  return solveAltcha(altchaChallenge.parse(await (await request.get("/api/verification/challenge")).json()));
}

/**
 * Signs in through the real login endpoint (verification, rate limits, password check); the session
 * cookie lands in the page's browser context. For tests whose subject is not the login form itself.
 */
export async function loginAs(page: Page, account: { email: string; password: string }): Promise<void> {
  const verificationToken = await solveVerification(page.request);
  const response = await page.request.post("/api/auth/login", {
    data: { email: account.email, password: account.password, verificationToken },
  });
  if (!response.ok()) throw new Error(`login failed for ${account.email}: ${response.status()} ${await response.text()}`);
}

/**
 * A moderator of one test only, created by the seeded admin through /admin/users: what a test does to its
 * second factors never touches the admin the rest of the suite signs in as. Leaves the browser signed out.
 */
export async function createStaffAccount(page: Page, admin: { email: string; password: string }, prefix: string, projectName: string) {
  const account = { email: `${prefix}-${Date.now()}-${projectName}@example.com`, password: `${prefix} phrase for e2e 5` };
  await loginAs(page, admin);
  await page.goto("/admin/users");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Temporary password (optional)").fill(account.password);
  await page.getByLabel("Role", { exact: true }).selectOption("moderator");
  await page.getByRole("button", { name: "Create User" }).click();
  await page.getByRole("cell", { name: account.email, exact: true }).waitFor();
  await page.context().clearCookies();
  return account;
}

/** The password step of /auth, through the verification widget, up to the second step. */
export async function signInWithPassword(page: Page, account: { email: string; password: string }) {
  await page.goto("/auth");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  const submit = page.getByRole("button", { name: "Sign In", exact: true });
  await completeVerification(page, submit);
  await submit.click();
  await expect(page.getByRole("heading", { name: "Two-factor authentication" })).toBeVisible();
}

export async function signOut(page: Page) {
  await (await adminSidebar(page)).getByRole("button", { name: "Logout" }).click();
  await expect(page).not.toHaveURL(/\/admin/);
}
