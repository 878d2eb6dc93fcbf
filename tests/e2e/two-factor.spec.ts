import { generate } from "otplib";
import { expect, test, type Page } from "./helpers/test";
import { E2E_ADMIN } from "./constants";
import { loginAs } from "./helpers/auth";
import { adminSidebar, completeVerification, expectNoSeriousAxeViolations, toastWith } from "./helpers/ui";

/** The password step of /auth, through the verification widget. */
async function signInWithPassword(page: Page, account: { email: string; password: string }) {
  await page.goto("/auth");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  const submit = page.getByRole("button", { name: "Sign In" });
  await completeVerification(page, submit);
  await submit.click();
  await expect(page.getByRole("heading", { name: "Two-factor authentication" })).toBeVisible();
}

async function signOut(page: Page) {
  await (await adminSidebar(page)).getByRole("button", { name: "Logout" }).click();
  await expect(page).not.toHaveURL(/\/admin/);
}

test("two-factor authentication: set up an authenticator app, sign out, sign in with a code, then with a recovery code", async ({
  page,
}) => {
  // Three proof-of-work solves and four sign-ins.
  test.slow();
  // A staff member of this test only: the seeded admin stays without 2FA for the rest of the suite.
  const account = { email: `2fa-${Date.now()}-${test.info().project.name}@example.com`, password: "two factor phrase for e2e 5" };
  await loginAs(page, E2E_ADMIN);
  await page.goto("/admin/users");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Temporary password (optional)").fill(account.password);
  await page.getByLabel("Role", { exact: true }).selectOption("moderator");
  await page.getByRole("button", { name: "Create User" }).click();
  await expect(page.getByRole("cell", { name: account.email, exact: true })).toBeVisible();
  await page.context().clearCookies();

  await loginAs(page, account);
  await page.goto("/admin/account");
  await page.getByRole("button", { name: "Set up authenticator app" }).click();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  const secret = ((await page.getByTestId("totp-secret").textContent()) ?? "").replace(/\s/g, "");
  const code = page.getByLabel("Authentication code");
  await code.fill("12");
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByText("Enter the 6-digit code from your authenticator app.")).toBeVisible();
  await code.fill(await generate({ secret }));
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Two-factor authentication is on." })).toBeVisible();
  const recoveryCodes = await page.getByTestId("recovery-codes").getByRole("listitem").allTextContents();
  expect(recoveryCodes).toHaveLength(10);
  await expect(page.getByRole("link", { name: "Download" })).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  await signOut(page);
  await signInWithPassword(page, account);
  await expectNoSeriousAxeViolations(page);
  // No session yet.
  expect((await page.context().cookies()).some((c) => c.name === "sid")).toBe(false);
  const field = page.getByLabel("Authentication code");
  await field.fill("000000");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(toastWith(page, "Error", "That code is not valid.")).toBeVisible();
  // The setup used this 30-second step's code: the next step's is accepted (one step of clock drift).
  await field.fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(toastWith(page, "Welcome back!")).toBeVisible();

  await signOut(page);
  await signInWithPassword(page, account);
  await page.getByLabel("Authentication code").fill(recoveryCodes[0] ?? "");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto("/admin/account");
  await expect(page.getByText("9 of 10 recovery codes left.")).toBeVisible();
});
