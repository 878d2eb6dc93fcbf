import { expect, test, type Page } from "./helpers/test";
import { E2E_ADMIN } from "./constants";
import { createStaffAccount, loginAs, signInWithPassword, signInWithRecoveryCode, signOut } from "./helpers/auth";
import { expectNoSeriousAxeViolations, toastWith } from "./helpers/ui";

/** Chromium's virtual authenticator (CDP WebAuthn domain): a platform passkey that verifies its user. */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials,
  };
}

test("passkeys: add one on /admin/account (recovery codes shown once), sign in with it without a password, use it or a recovery code as the second factor", async ({
  page,
}) => {
  test.slow();
  const account = await createStaffAccount(page, E2E_ADMIN, "passkey", test.info().project.name);
  const authenticator = await addVirtualAuthenticator(page);

  await loginAs(page, account);
  await page.goto("/admin/account");
  await expect(page.getByText("No passkeys yet.")).toBeVisible();
  // The name is required, as the shared schema says, before the authenticator is asked.
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByText("Name the passkey, e.g. the device it is on.")).toBeVisible();
  expect(await authenticator.credentials()).toHaveLength(0);
  await page.getByLabel("Passkey name").fill("Test laptop");
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByRole("status").filter({ hasText: 'Passkey "Test laptop" added.' })).toBeVisible();
  // The first passkey brings recovery codes, shown this once as the authenticator app's are: losing the device must not lock the account.
  const recoveryCodes = await page.getByTestId("recovery-codes").getByRole("listitem").allTextContents();
  expect(recoveryCodes).toHaveLength(10);
  await expect(page.getByRole("link", { name: "Download" })).toBeVisible();
  await expect(page.getByTestId("passkey-row")).toHaveCount(1);
  await expect(page.getByTestId("passkey-row")).toContainText("never used");
  const stored = await authenticator.credentials();
  expect(stored).toHaveLength(1);
  expect(stored[0]?.isResidentCredential).toBe(true);
  await expectNoSeriousAxeViolations(page);
  await page.reload();
  await expect(page.getByText("10 of 10 recovery codes left.")).toBeVisible();
  await expect(page.getByTestId("recovery-codes")).toHaveCount(0);

  // Passwordless: no email, no password, no verification widget.
  await signOut(page);
  await page.goto("/auth");
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(toastWith(page, "Welcome back!")).toBeVisible();
  await page.goto("/admin/account");
  await expect(page.getByTestId("passkey-row")).toContainText("last used");

  // The passkey is a second factor: the right password alone no longer starts a session.
  await signOut(page);
  await signInWithPassword(page, account);
  expect((await page.context().cookies()).some((c) => c.name === "sid")).toBe(false);
  // No authenticator app on this account: the step asks only for what it has.
  await expect(page.getByText("Use your passkey, or enter one of your recovery codes.")).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await page.getByRole("button", { name: "Use a passkey" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(toastWith(page, "Welcome back!")).toBeVisible();

  // The passkey device lost: a recovery code is the second factor instead, once.
  await signInWithRecoveryCode(page, account, recoveryCodes[0] ?? "");

  // The audit log has the three passkey events (the admin reads it).
  await page.context().clearCookies();
  await loginAs(page, E2E_ADMIN);
  await page.goto(`/admin/audit?actor=${encodeURIComponent(account.email)}`);
  await expect(page.getByText('passkey "Test laptop" added; 10 recovery codes issued').first()).toBeVisible();
  await expect(page.getByText("password and recovery code").first()).toBeVisible();
  await expect(page.getByText('password and passkey "Test laptop"').first()).toBeVisible();
  await expect(page.getByText(/^passkey "Test laptop"$/).first()).toBeVisible();

  // Removed: the password alone signs in again.
  await page.context().clearCookies();
  await signInWithPassword(page, account);
  await page.getByRole("button", { name: "Use a passkey" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto("/admin/account");
  await page.getByRole("button", { name: "Remove Test laptop" }).click();
  await expect(page.getByRole("status").filter({ hasText: 'Passkey "Test laptop" removed.' })).toBeVisible();
  await expect(page.getByText("No passkeys yet.")).toBeVisible();
  // The last second factor gone, the recovery codes went with it.
  await expect(page.getByText(/^Off\. Add an authenticator app/)).toBeVisible();
  await expect(page.getByRole("button", { name: "New recovery codes" })).toHaveCount(0);
  await page.context().clearCookies();
  await loginAs(page, account);
  await page.goto("/admin/account");
  await expect(page.getByRole("heading", { name: "Account", level: 1 })).toBeVisible();
});

test("passkeys: the browser library is not part of a public page's scripts", async ({ page }) => {
  const scripts: string[] = [];
  page.on("response", async (response) => {
    if (response.request().resourceType() === "script") scripts.push(await response.text().catch(() => ""));
  });
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.some((source) => source.includes("ERROR_CEREMONY_ABORTED"))).toBe(false);
});
