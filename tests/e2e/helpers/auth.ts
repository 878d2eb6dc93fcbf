import type { APIRequestContext, Page } from "@playwright/test";
import { solveChallenge } from "altcha-lib";

/** Solves the site's ALTCHA challenge the way the widget does, for requests made outside a page. */
export async function solveVerification(request: APIRequestContext): Promise<string> {
  const challenge = (await (await request.get("/api/verification/challenge")).json()) as {
    algorithm: string;
    challenge: string;
    salt: string;
    signature: string;
    maxnumber?: number;
  };
  const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber).promise;
  if (!solution) throw new Error("could not solve the verification challenge");
  const payload = { algorithm: challenge.algorithm, challenge: challenge.challenge, number: solution.number, salt: challenge.salt, signature: challenge.signature };
  return Buffer.from(JSON.stringify(payload)).toString("base64");
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
