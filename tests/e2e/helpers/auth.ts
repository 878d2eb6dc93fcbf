import { expect, type APIRequestContext, type Cookie, type Page } from "@playwright/test";
import { altchaChallenge, solveAltcha } from "../../helpers/altcha";
import { E2E_ADMIN, E2E_MODERATOR, E2E_USER } from "../constants";
import { adminSidebar, completeVerification } from "./ui";

/** Solves the site's ALTCHA challenge the way the widget does, for requests made outside a page. */
export async function solveVerification(request: APIRequestContext): Promise<string> {
  return solveAltcha(altchaChallenge.parse(await (await request.get("/api/verification/challenge")).json()));
}

/**
 * Signs in through the real login endpoint (verification, rate limits, password check); the session
 * cookie lands in the page's browser context. For tests whose subject is the login endpoint itself.
 */
export async function loginThroughEndpoint(page: Page, account: { email: string; password: string }): Promise<void> {
  const verificationToken = await solveVerification(page.request);
  const response = await page.request.post("/api/auth/login", {
    data: { email: account.email, password: account.password, verificationToken },
  });
  if (!response.ok()) throw new Error(`login failed for ${account.email}: ${response.status()} ${await response.text()}`);
}

/** Session cookies of the seeded accounts in this worker (one worker, one server: helpers/server.ts), by email. */
const seededSessions = new Map<string, Cookie>();
const SEEDED = [E2E_ADMIN, E2E_MODERATOR, E2E_USER];

/**
 * Signs in, for tests whose subject is not the login form itself. A seeded account reuses the session
 * this worker got for it earlier, once a request shows it still works (a test may have logged it out):
 * each real sign-in costs a proof-of-work solve and an argon2 check, seconds on a busy machine.
 */
export async function loginAs(page: Page, account: { email: string; password: string }): Promise<void> {
  const seeded = SEEDED.some((known) => known.email === account.email && known.password === account.password);
  const saved = seeded ? seededSessions.get(account.email) : undefined;
  if (saved) {
    await page.context().addCookies([saved]);
    if ((await (await page.request.get("/about")).text()).includes(">Logout<")) return;
    seededSessions.delete(account.email);
    await page.context().clearCookies({ name: saved.name });
  }
  await loginThroughEndpoint(page, account);
  const sid = (await page.context().cookies()).find((cookie) => cookie.name === "sid");
  if (seeded && sid) seededSessions.set(account.email, sid);
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

/** Signs out, then in with the password and a recovery code as the second step; checks one code is used up. */
export async function signInWithRecoveryCode(page: Page, account: { email: string; password: string }, code: string) {
  await signOut(page);
  await signInWithPassword(page, account);
  await page.getByLabel("Authentication code").fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto("/admin/account");
  await expect(page.getByText("9 of 10 recovery codes left.")).toBeVisible();
}

export async function signOut(page: Page) {
  await (await adminSidebar(page)).getByRole("button", { name: "Logout" }).click();
  await expect(page).not.toHaveURL(/\/admin/);
}
