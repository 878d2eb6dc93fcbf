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
    return {
      text: name.textContent,
      visible: box.width > 0 && box.height > 0,
      clipped: name.scrollWidth > name.clientWidth || name.scrollHeight > name.clientHeight,
      insideViewport: box.left >= 0 && box.right <= document.documentElement.clientWidth,
      insideHeader: box.bottom <= header.getBoundingClientRect().bottom,
      pageOverflow: document.documentElement.scrollWidth > document.documentElement.clientWidth,
      navOverflow: nav !== null && nav.getClientRects().length > 0 && nav.scrollWidth > nav.clientWidth,
    };
  });
}

test.describe("the site name in the top bar", () => {
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
            navOverflow: false,
          });
        }
      }
    }
    await anonymous.close();
  });

  test("links that do not fit wait in the More menu, reachable by keyboard", async ({ page }) => {
    test.setTimeout(180_000);
    await loginAs(page, E2E_ADMIN);
    await renameSite(page, NAMES[1] ?? "");
    await page.setViewportSize({ width: 1024, height: 800 });
    await gotoHydrated(page, "/about");
    await expect(page.getByTestId("site-name")).toHaveText(NAMES[1] ?? "");
    const nav = page.getByRole("navigation", { name: "Main" });
    const more = nav.getByRole("button", { name: "More" });
    await expect(more).toBeVisible();
    await more.focus();
    await page.keyboard.press("Enter");
    const menu = nav.getByRole("menu", { name: "More" });
    await expect(menu).toBeVisible();
    // Whatever is not in the bar is in the menu, and the focus starts on a shown entry.
    await expect(menu.getByRole("menuitem", { name: "Faith" })).toBeVisible();
    await expect(page.locator(":focus")).toHaveAttribute("role", "menuitem");
    await expect(page.locator(":focus")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    // With a shorter name on a wide screen every link is in the bar and "More" goes (signed out: a Login
    // button instead of Dashboard and Logout).
    await renameSite(page, NAMES[0] ?? "");
    await page.context().clearCookies();
    await page.setViewportSize({ width: 1920, height: 800 });
    await page.goto("/about");
    await expect(more).toBeHidden();
    await expect(nav.getByRole("link", { name: "Testimonials" })).toBeVisible();
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
