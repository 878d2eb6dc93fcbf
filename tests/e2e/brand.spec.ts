import { expect, test, type Page } from "./helpers/test";
import { E2E_ADMIN } from "./constants";
import { loginAs } from "./helpers/auth";
import { expectNoSeriousAxeViolations, gotoHydrated, toastWith } from "./helpers/ui";

const SYSTEM_FONTS = "System fonts: each visitor's own interface font, nothing to download (the default)";

async function saveLook(page: Page, accent: string, fonts: string) {
  await gotoHydrated(page, "/admin/settings");
  await page.getByLabel("Accent colour", { exact: true }).fill(accent);
  await page.getByLabel(fonts).check();
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(toastWith(page, "Settings saved")).toBeVisible({ timeout: 30_000 });
}

test.describe("the brand's accent colour and fonts", () => {
  test.skip(({ isMobile }) => isMobile, "one width is enough: the CSS is the same at every width");
  test.afterEach(async ({ page }) => {
    await loginAs(page, E2E_ADMIN);
    await saveLook(page, "", SYSTEM_FONTS);
  });

  test("a low-contrast colour is refused with its ratio; an accepted one colours the site's buttons", async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    await loginAs(page, E2E_ADMIN);
    await gotoHydrated(page, "/admin/settings");
    const accent = page.getByLabel("Accent colour", { exact: true });
    await accent.fill("#7dd3fc");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(
      page.getByText("Accent colour #7dd3fc has a contrast of 1.6:1 against white; it needs 4.5:1. Choose a darker colour."),
    ).toBeVisible();
    await expect(accent).toHaveAttribute("aria-invalid", "true");
    await expectNoSeriousAxeViolations(page);

    // The picker fills the hex field.
    await page.getByLabel("Pick the accent colour").fill("#b91c1c");
    await expect(accent).toHaveValue("#b91c1c");
    await page.getByLabel("Editorial: Playfair Display headings, Source Sans 3 text").check();
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(toastWith(page, "Settings saved")).toBeVisible({ timeout: 30_000 });

    const visitor = await (await browser.newContext({ baseURL })).newPage();
    const fontRequests: string[] = [];
    visitor.on("request", (request) => {
      if (request.resourceType() === "font") fontRequests.push(new URL(request.url()).origin + new URL(request.url()).pathname);
    });
    await visitor.goto("/");
    const button = visitor.getByRole("link", { name: "View My Work" });
    await expect(button).toHaveCSS("background-color", "rgb(185, 28, 28)");
    await expect(button).toHaveCSS("color", "rgb(250, 250, 250)");
    await expect(visitor.locator("h1")).toHaveCSS("font-family", /^"Playfair Display"/);
    await expect(visitor.locator("body")).toHaveCSS("font-family", /^"Source Sans 3"/);
    await visitor.evaluate(() => document.fonts.ready);
    expect(await visitor.evaluate(() => document.fonts.check('700 16px "Playfair Display"'))).toBe(true);
    // Fonts come from this site only.
    expect(fontRequests.length).toBeGreaterThan(0);
    for (const url of fontRequests) expect(url.startsWith(new URL(baseURL ?? "").origin), url).toBe(true);
    await expectNoSeriousAxeViolations(visitor);

    // The dark theme shows a lighter tone of the same colour, with dark text on its buttons.
    // (Transitions off, so the colour read is the dark theme's, not one on the way there.)
    await visitor.addStyleTag({ content: "*, *::before, *::after { transition: none !important; }" });
    await visitor.emulateMedia({ colorScheme: "dark" });
    await visitor.evaluate(() => document.documentElement.classList.add("dark"));
    await expect.poll(() => button.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe("rgb(185, 28, 28)");
    const dark = await button.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(dark).toMatch(/^rgb\((\d+), (\d+), (\d+)\)$/);
    const [red, green, blue] = (dark.match(/\d+/g) ?? []).map(Number);
    expect(red).toBeGreaterThan(green ?? 255);
    expect(red).toBeGreaterThan(blue ?? 255);
    await expectNoSeriousAxeViolations(visitor);
    await visitor.context().close();
  });
});
