import { expect, test, type Page } from "./helpers/test";
import { E2E_ADMIN } from "./constants";
import { loginAs } from "./helpers/auth";
import { expectNoSeriousAxeViolations, gotoHydrated, toastWith } from "./helpers/ui";

const WIDTHS = [320, 375, 768, 1024, 1280, 1366, 1920];
const NAMES = ["Maya Rivera!", "Maya Alexandra Rivera-Santos, PhD"].map((name) => name.slice(0, 32));

async function renameSite(page: Page, name: string) {
  await gotoHydrated(page, "/admin/settings");
  const field = page.getByLabel("Site name");
  await field.fill(name);
  await expect(field).toHaveValue(name);
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(toastWith(page, "Settings saved")).toBeVisible();
}

/** What the top bar shows of the name, and whether anything is wider than its box. */
function measure(page: Page) {
  return page.evaluate(() => {
    const name = document.querySelector<HTMLElement>('header [data-testid="site-name"]');
    const header = document.querySelector("header");
    const nav = document.querySelector<HTMLElement>('header nav[aria-label="Main"]');
    if (!name || !header) throw new Error("no site name in the header");
    const box = name.getBoundingClientRect();
    // The bar clips what passes its edge: its last shown part must end inside it.
    const row = header.querySelector<HTMLElement>("[data-nav-fit]");
    const last = row ? [...row.children].filter((child) => child.getClientRects().length > 0).at(-1) : undefined;
    const rowEnd = row ? row.getBoundingClientRect().right - Number.parseFloat(getComputedStyle(row).paddingRight) : 0;
    return {
      text: name.textContent,
      visible: box.width > 0 && box.height > 0,
      clipped: name.scrollWidth > name.clientWidth || name.scrollHeight > name.clientHeight,
      insideViewport: box.left >= 0 && box.right <= document.documentElement.clientWidth,
      insideHeader: box.bottom <= header.getBoundingClientRect().bottom,
      pageOverflow: document.documentElement.scrollWidth > document.documentElement.clientWidth,
      barOverflow: !last || last.getBoundingClientRect().right > rowEnd + 0.5,
      navOverflow: nav !== null && nav.getClientRects().length > 0 && nav.scrollWidth > nav.clientWidth,
    };
  });
}

test.describe("the site name in the top bar", () => {
  test.skip(({ isMobile }) => isMobile, "desktop and phone widths are set in the test");
  test.afterEach(async ({ page }) => {
    test.setTimeout(120_000);
    await loginAs(page, E2E_ADMIN);
    await renameSite(page, "7 Fs Portfolio");
  });

  test("is shown in full at every width, signed in or not, and nothing overflows", async ({ page, browser, baseURL }) => {
    test.setTimeout(240_000);
    expect(NAMES.map((name) => name.length)).toEqual([12, 32]);
    await loginAs(page, E2E_ADMIN);
    const anonymous = await browser.newContext({ baseURL });
    const visitor = await anonymous.newPage();
    for (const name of NAMES) {
      await renameSite(page, name);
      for (const [who, viewer] of [
        ["signed in", page],
        ["signed out", visitor],
      ] as const) {
        for (const width of WIDTHS) {
          await viewer.setViewportSize({ width, height: 800 });
          await viewer.goto("/about");
          const where = `${name} (${name.length} characters), ${who}, ${width} px`;
          expect(await measure(viewer), where).toEqual({
            text: name,
            visible: true,
            clipped: false,
            insideViewport: true,
            insideHeader: true,
            pageOverflow: false,
            barOverflow: false,
            navOverflow: false,
          });
        }
      }
    }
    await anonymous.close();
  });

  test("with the default name or a 12-character one every link, both menus and the search field stay in the bar from 1280 px", async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    await loginAs(page, E2E_ADMIN);
    const anonymous = await browser.newContext({ baseURL });
    const visitor = await anonymous.newPage();
    for (const name of ["7 Fs Portfolio", NAMES[0] ?? ""]) {
      await renameSite(page, name);
      for (const [who, viewer] of [
        ["signed in", page],
        ["signed out", visitor],
      ] as const) {
        for (const width of [1280, 1366, 1920]) {
          await viewer.setViewportSize({ width, height: 800 });
          await gotoHydrated(viewer, "/about");
          const nav = viewer.getByRole("navigation", { name: "Main" });
          const where = `${name}, ${who}, ${width} px`;
          await expect(viewer.getByTestId("site-name"), where).toHaveText(name);
          for (const link of ["Home", "About Me", "Recent Roles", "My Projects", "Testimonials", "Contact Me"])
            await expect(nav.getByRole("link", { name: link, exact: true }), where).toBeVisible();
          await expect(nav.getByRole("button", { name: "Services" }), where).toBeVisible();
          await expect(nav.getByRole("button", { name: "7Fs" }), where).toBeVisible();
          await expect(nav.getByRole("button", { name: "More" }), where).toBeHidden();
          await expect(viewer.getByRole("banner").getByRole("searchbox", { name: "Search" }), where).toBeVisible();
          expect((await measure(viewer)).clipped, where).toBe(false);
        }
      }
    }
    await anonymous.close();
  });

  test("with a 32-character name the links that do not fit wait in More and the search in its icon, both by keyboard", async ({ page }) => {
    test.setTimeout(180_000);
    await loginAs(page, E2E_ADMIN);
    const long = NAMES[1] ?? "";
    await renameSite(page, long);
    await page.setViewportSize({ width: 1024, height: 800 });
    await gotoHydrated(page, "/about");
    await expect(page.getByTestId("site-name")).toHaveText(long);
    const nav = page.getByRole("navigation", { name: "Main" });
    const more = nav.getByRole("button", { name: "More" });
    await expect(more).toBeVisible();
    await more.focus();
    await page.keyboard.press("Enter");
    const menu = nav.getByRole("menu", { name: "More" });
    await expect(menu).toBeVisible();
    // Whatever is not in the bar is in the menu, and the focus starts on a shown entry.
    await expect(menu.getByRole("menuitem", { name: "Testimonials" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Testimonials", exact: true })).toBeHidden();
    await expect(page.locator(":focus")).toHaveAttribute("role", "menuitem");
    await expect(page.locator(":focus")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(more).toBeFocused();
    // The search field waits behind its icon: "/" opens it, Escape closes it again.
    const banner = page.getByRole("banner");
    await expect(banner.getByRole("searchbox", { name: "Search" })).toBeHidden();
    const icon = banner.getByRole("link", { name: "Search" });
    await expect(icon).toBeVisible();
    await page.locator("body").press("/");
    const field = banner.getByRole("searchbox", { name: "Search" });
    await expect(field).toBeFocused();
    await expectNoSeriousAxeViolations(page);
    await page.keyboard.press("Escape");
    await expect(field).toBeHidden();
    await expect(icon).toBeFocused();
    await icon.click();
    await expect(field).toBeFocused();
    await page.keyboard.type("budgets");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/search\?q=budgets$/);
    // At 1920 px the long name and every link fit.
    await page.setViewportSize({ width: 1920, height: 800 });
    await page.goto("/about");
    await expect(more).toBeHidden();
    await expect(nav.getByRole("button", { name: "7Fs" })).toBeVisible();
  });
});

test("the hero says whose site it is once the owner writes a greeting, and not before", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto("/");
  await expect(page.getByTestId("hero-greeting")).toHaveCount(0);
  await loginAs(page, E2E_ADMIN);
  await gotoHydrated(page, "/admin/about");
  await expectNoSeriousAxeViolations(page);
  const field = page.getByLabel("Hero greeting");
  await field.fill("Hi, I'm Maya Rivera");
  await expect(field).toHaveValue("Hi, I'm Maya Rivera");
  await page.getByRole("button", { name: "Save page content" }).click();
  await expect(toastWith(page, "Page content saved")).toBeVisible();
  await page.goto("/");
  await expect(page.getByTestId("hero-greeting")).toHaveText("Hi, I'm Maya Rivera");
  // Emptied, the line goes.
  await gotoHydrated(page, "/admin/about");
  await page.getByLabel("Hero greeting").fill("");
  await page.getByRole("button", { name: "Save page content" }).click();
  await expect(toastWith(page, "Page content saved")).toBeVisible();
  await page.goto("/");
  await expect(page.getByTestId("hero-greeting")).toHaveCount(0);
});
