import type { APIRequestContext, Page } from "@playwright/test";
import { altchaChallenge, solveAltcha } from "../../helpers/altcha";

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
