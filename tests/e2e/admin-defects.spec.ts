import { expect, test, type Locator, type Page } from "./helpers/test";
import { E2E_ADMIN, E2E_USER, SAME_ON_PHONES } from "./constants";
import { loginAs, solveVerification } from "./helpers/auth";
import { completeVerification, toastWith, waitForToasts } from "./helpers/ui";

/** The element's box lies wholly inside the viewport (nothing clipped or pushed off to the right). */
async function expectInsideViewport(page: Page, locator: Locator): Promise<void> {
  await expect(locator).toBeVisible();
  const box = await locator.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(box, "bounding box").not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(width);
}

/** The page is no wider than the window (no sideways scrolling). */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(client);
}

test("a plain user's sign-in says they are signed in and explains the admin area, without an Access Denied", async ({ page }) => {
  await page.goto("/auth");
  await page.getByLabel("Email").fill(E2E_USER.email);
  await page.getByLabel("Password", { exact: true }).fill(E2E_USER.password);
  const submit = page.getByRole("button", { name: "Sign In", exact: true });
  await completeVerification(page, submit);
  await submit.click();
  await expect(page).toHaveURL(/\/$/);
  await expect(toastWith(page, "Welcome back!", "You are signed in. The admin area needs an editor role")).toBeVisible();
  await expect(toastWith(page, "Access Denied")).toHaveCount(0);
  // Signed in: the top bar offers Logout, and /auth no longer sends them to an admin area that refuses them.
  const home = await page.goto("/auth");
  const redirect = await home?.request().redirectedFrom()?.response();
  expect(redirect?.status()).toBe(302);
  expect((await redirect?.allHeaders())?.["set-cookie"] ?? "").not.toContain("toast=");
  await expect(page).toHaveURL(/\/$/);
  await waitForToasts(page);
  await expect(toastWith(page, "Access Denied")).toHaveCount(0);
});

test("error pages are titled by their status: a 403 is not an Internal Server Error", { tag: SAME_ON_PHONES }, async ({ page }) => {
  await loginAs(page, E2E_USER);
  const response = await page.goto("/7fs/Faith/new");
  expect(response?.status()).toBe(403);
  await expect(page).toHaveTitle("403 Access denied");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Access denied");
  await expect(page.getByText("Internal Server Error")).toHaveCount(0);
});

test("an unknown category is the site's one 404 page, its text shown once", { tag: SAME_ON_PHONES }, async ({ page }) => {
  const response = await page.goto("/7fs/Bogus");
  expect(response?.status()).toBe(404);
  await expect(page.getByText("Oops! Page not found")).toHaveCount(1);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("404");
  await expect(page).toHaveTitle("Page not found");
  // The same page as any other unknown address.
  const main = await page.locator("#main").innerHTML();
  await page.goto("/no-such-page-here");
  expect(await page.locator("#main").innerHTML()).toBe(main);
});

test.describe("at 1024 px wide", () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  test("the top bar shows Login, and Dashboard and Logout once signed in, unclipped", async ({ page }) => {
    await page.goto("/");
    const bar = page.getByRole("banner");
    await expectInsideViewport(page, bar.getByRole("link", { name: "Login" }));
    await expectInsideViewport(page, bar.getByRole("button", { name: "Toggle theme" }));
    await expectNoSidewaysScroll(page);

    await loginAs(page, E2E_ADMIN);
    await page.goto("/");
    await expectInsideViewport(page, bar.getByRole("link", { name: "Dashboard" }));
    await expectInsideViewport(page, bar.getByRole("button", { name: "Logout" }));
    await expectNoSidewaysScroll(page);
  });
});

test("a 1,000-character word in a contact message wraps in the inbox instead of widening the page", async ({ page }) => {
  const word = `w${Date.now()}${"x".repeat(1000)}`.slice(0, 1000);
  const sent = await page.request.post("/api/send-contact-email", {
    data: { name: "Long Word", email: "long@example.com", message: word, turnstileToken: await solveVerification(page.request) },
  });
  expect(sent.status()).toBe(201);
  await loginAs(page, E2E_ADMIN);
  await page.goto("/admin/messages");
  const item = page.getByTestId("contact-message").filter({ hasText: word });
  await item.locator("summary").click();
  await expect(item.getByText(word)).toBeVisible();
  await expectNoSidewaysScroll(page);
  await expectInsideViewport(page, item.getByText(word));
});
