import type { APIRequestContext } from "@playwright/test";
import { expect, test, type Page } from "./helpers/test";
import { E2E_ADMIN } from "./constants";
import { loginAs, solveVerification } from "./helpers/auth";
import { waitForMail } from "./helpers/mailbox";
import { expectNoSeriousAxeViolations } from "./helpers/ui";

const PASSWORD = "a staff pass phrase 77";

/** Creates a plain user through the Users screen; returns their email. */
async function createUser(page: Page, prefix: string): Promise<string> {
  const email = `${prefix}-${Date.now()}-${test.info().project.name}@example.com`;
  await page.goto("/admin/users");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Temporary password (optional)").fill(PASSWORD);
  await page.getByRole("button", { name: "Create User" }).click();
  await expect(page.getByRole("cell", { name: email, exact: true })).toBeVisible();
  return email;
}

async function signInStatus(request: APIRequestContext, email: string) {
  const response = await request.post("/api/auth/login", {
    data: { email, password: PASSWORD, verificationToken: await solveVerification(request) },
  });
  return { status: response.status(), body: await response.text() };
}

function rowOf(page: Page, email: string) {
  // The first cell is the email, followed by the 'You' marker on one's own row.
  return page.getByRole("row").filter({ has: page.getByRole("cell", { name: new RegExp(`^${email.replace(/[.+]/g, "\\$&")}( You)?$`) }) });
}

test("users: a disabled user cannot sign in until enabled; a reset link is mailed; delete asks first", async ({
  page,
  playwright,
  baseURL,
}) => {
  await loginAs(page, E2E_ADMIN);
  const email = await createUser(page, "lifecycle");
  const row = rowOf(page, email);
  const outsider = await playwright.request.newContext({ baseURL });

  const since = Date.now();
  await row.getByRole("button", { name: `Send password reset link to ${email}` }).click();
  await expect(page.getByText(`A password reset link is on its way to ${email}.`).first()).toBeVisible();
  const mail = await waitForMail(email, since);
  expect(mail.text).toMatch(/https?:\/\/\S+\/auth#type=recovery&token=[\w%-]+/);

  await row.getByRole("button", { name: `Disable ${email}` }).click();
  await expect(row.getByText("Disabled", { exact: true })).toBeVisible();
  const refused = await signInStatus(outsider, email);
  expect(refused.status).toBe(403);
  expect(refused.body).toContain("This account has been disabled");
  // No reset link for a disabled account: the button is gone.
  await expect(row.getByRole("button", { name: `Send password reset link to ${email}` })).toHaveCount(0);

  await row.getByRole("button", { name: `Enable ${email}` }).click();
  await expect(row.getByText("Disabled", { exact: true })).toHaveCount(0);
  expect((await signInStatus(outsider, email)).status).toBe(200);

  await row.getByRole("button", { name: `Delete ${email}` }).click();
  const dialog = page.getByRole("alertdialog", { name: `Delete ${email}?` });
  await expect(dialog).toContainText("Posts they wrote stay on the site, shown without an author.");
  await expectNoSeriousAxeViolations(page);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(row).toHaveCount(1);
  await row.getByRole("button", { name: `Delete ${email}` }).click();
  await dialog.getByRole("button", { name: "Delete user" }).click();
  await expect(row).toHaveCount(0);
  expect((await signInStatus(outsider, email)).status).toBe(401);
  await outsider.dispose();
});

test("users: 'You' marks your own row, which has no Disable or Delete; removing your own admin role asks first", async ({ page }) => {
  await loginAs(page, E2E_ADMIN);
  await page.goto("/admin/users");
  const own = rowOf(page, E2E_ADMIN.email);
  await expect(own.getByText("You", { exact: true })).toBeVisible();
  await expect(page.getByText("You", { exact: true })).toHaveCount(1);
  await expect(own.getByRole("button", { name: `Disable ${E2E_ADMIN.email}` })).toHaveCount(0);
  await expect(own.getByRole("button", { name: `Delete ${E2E_ADMIN.email}` })).toHaveCount(0);
  await own.getByRole("button", { name: `Revoke Administrator for ${E2E_ADMIN.email}` }).click();
  const dialog = page.getByRole("alertdialog", { name: "Remove your own administrator role?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(own.getByText("Administrator", { exact: true })).toBeVisible();
  await expectNoSeriousAxeViolations(page);
});

test.describe("on a 375 px phone", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("every button of the users list is fully visible", async ({ page }) => {
    await loginAs(page, E2E_ADMIN);
    await createUser(page, "narrow");
    const buttons = page.locator("table").getByRole("button");
    expect(await buttons.count()).toBeGreaterThan(4);
    for (const button of await buttons.all()) {
      await button.scrollIntoViewIfNeeded();
      const box = await button.boundingBox();
      const name = (await button.getAttribute("aria-label")) ?? (await button.textContent()) ?? "";
      expect(box, name).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, name).toBeLessThanOrEqual(375);
    }
    const { scroll, client } = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(scroll).toBeLessThanOrEqual(client);
    // The creation toast may be mid-fade (contrast measured half transparent): the page itself is checked.
    await expectNoSeriousAxeViolations(page, { exclude: ["[data-sonner-toaster]"] });
  });
});
