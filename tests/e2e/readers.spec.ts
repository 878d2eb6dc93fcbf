import { expect, test, type Page, type TestInfo } from "./helpers/test";
import { SAME_ON_PHONES } from "./constants";
import { expectNoSeriousAxeViolations } from "./helpers/ui";
import { FIXED_PAGES } from "../helpers/pages";

const isMobile = (testInfo: TestInfo) => testInfo.project.name === "mobile";
const BUDGET_POST = "A Simple Budget That Survives Real Life";

/** The search field of the top bar (desktop) — the mobile one lives in the menu. */
const topBarSearch = (page: Page) => page.getByRole("banner").getByRole("searchbox", { name: "Search", exact: true });

test.describe("search", () => {
  test.beforeEach(async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
  });

  test("from the top bar: '/' focuses the field, results are ranked with the matches marked", async ({ page }, testInfo) => {
    test.skip(isMobile(testInfo), "the top bar field is desktop only");
    await page.goto("/about");
    await expect(topBarSearch(page)).not.toBeFocused();
    await page.locator("body").press("/");
    await expect(topBarSearch(page)).toBeFocused();
    await page.keyboard.type("budgets");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/search\?q=budgets$/);
    const results = page.getByRole("list", { name: "Search results" });
    const first = results.getByRole("listitem").first();
    await expect(first.getByRole("link", { name: BUDGET_POST })).toBeVisible();
    // Stemming: "budgets" finds "Budget" and "budgets", each wrapped in <mark>.
    await expect(first.locator("mark").first()).toHaveText(/^budgets?$/i);
    await expect(topBarSearch(page)).toHaveValue("budgets");
    await expectNoSeriousAxeViolations(page);
    await first.getByRole("link", { name: BUDGET_POST }).click();
    await expect(page.getByRole("heading", { level: 1, name: BUDGET_POST })).toBeVisible();
  });

  test("'/' does not steal focus while typing in another field", async ({ page }) => {
    await page.goto("/search");
    const pageField = page.getByRole("main").getByRole("searchbox", { name: "Search posts" });
    await pageField.click();
    await page.keyboard.type("either/or");
    await expect(pageField).toHaveValue("either/or");
    await expect(pageField).toBeFocused();
  });

  test("no match: 'No results for \"…\"' with links to the categories", async ({ page }) => {
    await page.goto("/search");
    await page.getByRole("main").getByRole("searchbox", { name: "Search posts" }).fill("zebra xylophone");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: 'No results for "zebra xylophone"' })).toBeVisible();
    await page.getByRole("main").getByRole("link", { name: "Fitness", exact: true }).click();
    await expect(page).toHaveURL(/\/7fs\/Fitness$/);
  });

  test("drafts are never found", async ({ page }) => {
    await page.goto("/search?q=board+games");
    await expect(page.getByRole("heading", { name: 'No results for "board games"' })).toBeVisible();
  });

  test("works without JavaScript (a GET form)", async ({ browser }, testInfo) => {
    test.skip(isMobile(testInfo), "the top bar field is desktop only; the menu needs JavaScript");
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/");
    await topBarSearch(page).fill("walking meetings");
    await topBarSearch(page).press("Enter");
    await expect(page).toHaveURL(/\/search\?q=walking\+meetings$/);
    await expect(page.getByRole("link", { name: "Walking Meetings for Busy Product Managers" })).toBeVisible();
    await expect(page.locator("mark").first()).toBeVisible();
    await context.close();
  });

  test("from the mobile menu", async ({ page }, testInfo) => {
    test.skip(!isMobile(testInfo), "mobile menu");
    await page.goto("/");
    await page.getByRole("button", { name: "Open menu" }).click();
    const dialog = page.getByRole("dialog", { name: "Menu" });
    await dialog.getByRole("searchbox", { name: "Search", exact: true }).fill("volunteering");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/search\?q=volunteering$/);
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("link", { name: "Leading by Serving: Lessons from Volunteering" })).toBeVisible();
  });
});

/** Records, once <body> is inserted (before anything in it can paint), whether <html> had the dark class. */
async function watchFirstPaintTheme(page: Page) {
  await page.addInitScript(() => {
    const record = () => {
      const w = window as unknown as { __darkBeforeBody?: boolean };
      if (w.__darkBeforeBody === undefined) w.__darkBeforeBody = document.documentElement.classList.contains("dark");
    };
    new MutationObserver((_, observer) => {
      if (document.body) {
        record();
        observer.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

const darkBeforeBody = (page: Page) => page.evaluate(() => (window as unknown as { __darkBeforeBody?: boolean }).__darkBeforeBody);
const htmlIsDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains("dark"));

test.describe("dark mode", () => {
  test("follows the system with no flash, and live when the system changes", async ({ page }) => {
    await watchFirstPaintTheme(page);
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto("/about");
    expect(await darkBeforeBody(page)).toBe(true);
    await page.emulateMedia({ colorScheme: "light" });
    await expect.poll(() => htmlIsDark(page)).toBe(false);
  });

  test("the top bar toggle switches the theme and the choice is remembered, applied before first paint", async ({ page }) => {
    await watchFirstPaintTheme(page);
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto("/");
    expect(await darkBeforeBody(page)).toBe(false);
    const toggle = page.getByRole("button", { name: "Toggle theme" });
    await toggle.click();
    await expect.poll(() => htmlIsDark(page)).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");
    // The server renders no theme: the same HTML for everyone (page cache friendly).
    const html = await (await page.request.get("/")).text();
    expect(html).not.toMatch(/<html[^>]*class=/);

    await page.goto("/projects");
    expect(await darkBeforeBody(page)).toBe(true);
    // The stored choice beats the system setting.
    await page.getByRole("button", { name: "Toggle theme" }).click();
    await expect.poll(() => htmlIsDark(page)).toBe(false);
    await page.emulateMedia({ colorScheme: "dark" });
    await page.reload();
    expect(await darkBeforeBody(page)).toBe(false);
  });

  const PUBLIC_PAGES = [
    ...FIXED_PAGES,
    "/7fs/Faith",
    "/7fs/Finance/a-simple-budget-that-survives-real-life",
    "/search?q=budget",
    "/search?q=nothing+here",
    "/no-such-page",
  ];
  // Colours are the same on every screen: phones check the home page and a post (their menus and layout).
  const ON_PHONES = new Set(["/", "/7fs/Finance/a-simple-budget-that-survives-real-life"]);
  for (const path of PUBLIC_PAGES) {
    test(
      `${path} passes axe (colour contrast included) in the dark theme`,
      ON_PHONES.has(path) ? {} : { tag: SAME_ON_PHONES },
      async ({ page }) => {
        await page.emulateMedia({ colorScheme: "dark", reducedMotion: "reduce" });
        await page.goto(path);
        expect(await htmlIsDark(page)).toBe(true);
        await expectNoSeriousAxeViolations(page);
      },
    );
  }
});
