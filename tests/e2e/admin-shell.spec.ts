import { expect, test } from "./helpers/test";
import { E2E_ADMIN, E2E_MODERATOR } from "./constants";
import { loginAs } from "./helpers/auth";
import { expectNoSeriousAxeViolations } from "./helpers/ui";

test("admin pages have their own shell: slim top bar with View site and a user menu, no public header or footer", async ({ page }) => {
  await loginAs(page, E2E_ADMIN);
  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
  await expect(page.getByRole("contentinfo")).toHaveCount(0);
  await expect(page.getByRole("main")).toHaveCount(1);
  const bar = page.getByRole("banner");
  await expect(bar).toHaveCount(1);
  expect((await bar.boundingBox())?.height).toBeLessThanOrEqual(49);
  await expect(bar.getByRole("button", { name: "Toggle Sidebar" })).toBeVisible();
  await bar.getByRole("button", { name: `User menu (${E2E_ADMIN.email})` }).click();
  const menu = page.getByRole("menu");
  await expect(menu.getByText(E2E_ADMIN.email)).toBeVisible();
  await expect(menu.getByText("Administrator")).toBeVisible();
  await expect(menu.getByRole("menuitem", { name: "Account" })).toBeVisible();
  await expect(menu.getByRole("menuitem", { name: "Logout" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expectNoSeriousAxeViolations(page);

  await bar.getByRole("link", { name: "View site" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("contentinfo")).toHaveCount(1);
});

test("dashboard: Getting Started is a live checklist, each step linked to its screen; counters two by two on phones", async ({ page }) => {
  await loginAs(page, E2E_ADMIN);
  await page.goto("/admin");
  const checklist = page.getByRole("list", { name: "Getting started checklist" });
  await expect(checklist.getByRole("listitem")).toHaveCount(5);
  const links: [string, string][] = [
    ["site-name", "/admin/settings"],
    ["portrait", "/admin/settings"],
    ["about", "/admin/settings"],
    ["first-post", "/admin/blog"],
    ["contact-email", "/admin/settings"],
  ];
  for (const [id, to] of links) {
    await expect(page.getByTestId(`step-${id}`).getByRole("link")).toHaveAttribute("href", to);
  }
  // Live: the first-post step counts the owner's own published posts (never more than the Published counter, which includes the demo's).
  const published = Number(await page.getByTestId("counter-Published").textContent());
  const done = await page.getByTestId("step-first-post").getAttribute("data-done");
  if (published === 0) expect(done).toBe("false");
  await expect(page.getByTestId("step-first-post")).toContainText(done === "true" ? "(done)" : "(to do)");

  if ((page.viewportSize()?.width ?? 1280) < 768) {
    const boxes = await Promise.all(
      ["Total Posts", "Published", "Drafts", "Scheduled"].map((label) => page.getByTestId(`counter-${label}`).boundingBox()),
    );
    const [first, second, third, fourth] = boxes.map((box) => box!);
    expect(Math.abs(first!.y - second!.y)).toBeLessThan(2);
    expect(Math.abs(third!.y - fourth!.y)).toBeLessThan(2);
    expect(third!.y).toBeGreaterThan(first!.y + 10);
    expect(second!.x).toBeGreaterThan(first!.x + 50);
  }
  await expectNoSeriousAxeViolations(page);

  await page.getByTestId("step-first-post").getByRole("link").click();
  await expect(page).toHaveURL(/\/admin\/blog$/);
});

test("a moderator's checklist holds only what they can act on", async ({ page }) => {
  await loginAs(page, E2E_MODERATOR);
  await page.goto("/admin");
  await expect(page.getByTestId("step-first-post").getByRole("link")).toHaveAttribute("href", "/admin/blog");
  await expect(page.getByTestId("step-site-name")).toHaveCount(0);
  await expect(page.getByText("An administrator sets this")).toHaveCount(0);
  await expect(page.getByTestId("mail-status")).toHaveCount(0);
});
