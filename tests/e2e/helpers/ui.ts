import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page } from "@playwright/test";

/** Ticks the ALTCHA widget in the page and waits until it has solved its proof of work. */
export async function completeVerification(page: Page, submit: Locator): Promise<void> {
  await expect(submit).toBeDisabled();
  await page.getByTestId("human-verification").getByRole("checkbox").click();
  await expect(submit).toBeEnabled({ timeout: 20_000 });
}

/** A toast (sonner's, or the plain one of pages without React) with this title and, optionally, this description. */
export function toastWith(page: Page, title: string, description?: string): Locator {
  const toast = page.locator("[data-sonner-toast], [data-toast]").filter({ hasText: title });
  return description ? toast.filter({ hasText: description }) : toast;
}

/**
 * Waits until a toast carried to this page (the toast cookie, shown by the root after hydration) would
 * be on screen: the page is hydrated, sonner's toaster is mounted (always, for a signed-in user) and
 * two frames have been painted since. Only then does "no such toast" mean something.
 */
export async function waitForToasts(page: Page): Promise<void> {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.locator('section[aria-label^="Notifications"]').waitFor({ state: "attached" });
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/** The axe check of every spec: no serious or critical violation on the page, outside the `exclude`d selectors. */
export async function expectNoSeriousAxeViolations(page: Page, { exclude = [] }: { exclude?: string[] } = {}): Promise<void> {
  const builder = new AxeBuilder({ page });
  for (const selector of exclude) builder.exclude(selector);
  const results = await builder.analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const summary = serious.map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.map((n) => n.target) }));
  expect(serious, JSON.stringify(summary, null, 2)).toEqual([]);
}

/** The admin sidebar: inline from 768px, a drawer opened with the toggle on narrower screens. */
export async function adminSidebar(page: Page): Promise<Locator> {
  const width = page.viewportSize()?.width ?? 1280;
  if (width < 768) {
    await page.getByRole("button", { name: "Toggle Sidebar" }).click();
    return page.getByRole("dialog", { name: "Admin Panel" });
  }
  return page.getByTestId("admin-sidebar");
}

/**
 * Opens a page and waits until React has hydrated it. Filling a controlled field before then races
 * hydration: the browser's selection is lost and the typed text lands in front of the old text.
 */
export async function gotoHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}
