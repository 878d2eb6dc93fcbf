import { expect, test, type Page, type TestInfo } from "./helpers/test";
import { E2E_ADMIN } from "./constants";
import { loginAs } from "./helpers/auth";
import { expectNoSeriousAxeViolations, gotoHydrated } from "./helpers/ui";

// Anonymous public pages ship no React, only the enhancement script (app/enhance); signed-in
// pages keep the full app, and the header controls behave the same on both (one implementation).

const isMobile = (testInfo: TestInfo) => testInfo.project.name === "mobile";

/** The page's scripts by address, recorded from the first request on. */
function recordScripts(page: Page): string[] {
  const scripts: string[] = [];
  page.on("request", (request) => {
    // The widget's workers (blob: URLs) are part of the widget.
    if (request.resourceType() === "script" && request.url().startsWith("http")) scripts.push(new URL(request.url()).pathname);
  });
  return scripts;
}

const hasRouterContext = (page: Page) => page.evaluate(() => "__reactRouterContext" in window);

/** The header's menu: the desktop Services menu or the mobile sheet, opened by keyboard and closed by Escape. */
async function checkHeaderMenu(page: Page, testInfo: TestInfo) {
  if (isMobile(testInfo)) {
    const trigger = page.getByRole("button", { name: "Open menu" });
    await trigger.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Menu" });
    await expect(dialog).toBeVisible();
    await expect(trigger).toHaveAttribute("aria-expanded", "true");
    await expect(dialog.getByRole("link", { name: "Faith" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(trigger).toBeFocused();
    await expect(trigger).toHaveAttribute("aria-expanded", "false");
    return;
  }
  const bar = page.getByRole("navigation", { name: "Main" });
  const services = bar.getByRole("button", { name: "Services" });
  if (!(await services.isVisible())) {
    // The site name takes the room it needs; links that do not fit beside it wait in "More".
    const more = bar.getByRole("button", { name: "More" });
    await more.focus();
    await page.keyboard.press("Enter");
    const moreMenu = page.getByRole("menu", { name: "More" });
    await expect(moreMenu.getByRole("menuitem", { name: "IT Consulting" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(moreMenu).toBeHidden();
    await expect(more).toBeFocused();
    return;
  }
  await services.focus();
  await page.keyboard.press("ArrowUp");
  const menu = page.getByRole("menu", { name: "Services" });
  await expect(menu.getByRole("menuitem", { name: "IT Training" })).toBeFocused();
  await page.keyboard.press("Home");
  await expect(menu.getByRole("menuitem", { name: "IT Consulting" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(services).toBeFocused();
  await expect(services).toHaveAttribute("aria-expanded", "false");
}

async function checkThemeToggle(page: Page) {
  const dark = () => page.evaluate(() => document.documentElement.classList.contains("dark"));
  const before = await dark();
  await page.getByRole("button", { name: "Toggle theme" }).click();
  await expect.poll(dark).toBe(!before);
  expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe(before ? "light" : "dark");
}

test("an anonymous public page loads no React: the enhancement script alone drives it", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const scripts = recordScripts(page);
  await gotoHydrated(page, "/7fs/Fun");
  expect(await hasRouterContext(page)).toBe(false);
  expect(scripts.filter((script) => /vendor|entry\.client|manifest-/.test(script))).toEqual([]);
  expect(scripts.some((script) => /^\/assets\/enhance-[\w-]+\.js$/.test(script))).toBe(true);
  await expect(page.locator('link[rel="modulepreload"]')).toHaveCount(0);

  await checkHeaderMenu(page, testInfo);
  await checkThemeToggle(page);
  if (!isMobile(testInfo)) {
    await page.locator("body").press("/");
    await expect(page.getByRole("banner").getByRole("searchbox", { name: "Search" })).toBeFocused();
  }

  // The Subscribe form: the widget appears once the form is used, and 'Subscribe' waits for it.
  const form = page.getByRole("form", { name: "Subscribe" });
  await expect(form.getByTestId("human-verification")).toHaveCount(0);
  const submit = form.getByRole("button", { name: "Subscribe" });
  await expect(submit).toBeEnabled();
  await form.getByLabel("Email").fill(`islands-${Date.now()}@subscribers.example`);
  await expect(submit).toBeDisabled();
  await form.getByTestId("human-verification").getByRole("checkbox").click();
  await expect(submit).toBeEnabled({ timeout: 45_000 });
  await expect(form.locator('input[type="hidden"][name="verificationToken"]')).not.toHaveValue("");
  await expectNoSeriousAxeViolations(page);
  // The widget is the only other script: loaded when the form was used.
  expect(scripts.filter((script) => !/^\/assets\/enhance-/.test(script))).toEqual([]);
  await submit.click();
  await expect(page).toHaveURL(/\/subscribe$/);
  await expect(page.getByRole("status").filter({ hasText: "Check your inbox" })).toBeVisible();
});

test("a signed-in visitor gets the full app, with the same header controls", async ({ page }, testInfo) => {
  const scripts = recordScripts(page);
  await loginAs(page, E2E_ADMIN);
  await gotoHydrated(page, "/7fs/Fun");
  expect(await hasRouterContext(page)).toBe(true);
  expect(scripts.some((script) => /vendor/.test(script))).toBe(true);
  expect(scripts.some((script) => /^\/assets\/enhance-[\w-]+\.js$/.test(script))).toBe(true);
  // Staff see what needs React and a session (the editor's link).
  await expect(page.getByRole("link", { name: /new post/i })).toBeVisible();
  await checkHeaderMenu(page, testInfo);
  await checkThemeToggle(page);

  // A link is followed by the router: the top bar's spinner shows while the next page's data loads.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/projects\.data/, async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole("contentinfo").getByRole("link", { name: "My Projects" }).click();
  await expect(page.getByTestId("page-loading")).toBeVisible();
  release();
  await expect(page.getByRole("heading", { level: 1, name: "Web Development Projects" })).toBeVisible();
  await expect(page.getByTestId("page-loading")).toBeHidden();
});
