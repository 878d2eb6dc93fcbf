import { generate } from "otplib";
import { expect, test } from "./helpers/test";
import { E2E_ADMIN } from "./constants";
import { createStaffAccount, loginAs, signInWithPassword, signInWithRecoveryCode, signOut } from "./helpers/auth";
import { expectNoSeriousAxeViolations, toastWith } from "./helpers/ui";

test("two-factor authentication: set up an authenticator app, sign out, sign in with a code, then with a recovery code", async ({
  page,
}) => {
  // Three proof-of-work solves and four sign-ins.
  test.slow();
  // A staff member of this test only: the seeded admin stays without 2FA for the rest of the suite.
  const account = await createStaffAccount(page, E2E_ADMIN, "2fa", test.info().project.name);

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

  await signInWithRecoveryCode(page, account, recoveryCodes[0] ?? "");
});
