import { E2E_ADMIN } from "./constants";
import { loginAs } from "./helpers/auth";
import { expect, test } from "./helpers/test";
import { adminSidebar, expectNoSeriousAxeViolations, toastWith } from "./helpers/ui";

/** The header menu edited in the admin by keyboard and mouse; the home page's top bar follows, for visitors too. */
test("menus: add a header link, move it up by keyboard, remove one, see it on the home page, reset", async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  test.skip(testInfo.project.name !== "desktop", "the top bar's links show on desktop widths");
  test.setTimeout(120_000);
  await loginAs(page, E2E_ADMIN);
  await page.goto("/admin");
  await expect((await adminSidebar(page)).getByRole("link", { name: "Menus", exact: true })).toHaveAttribute("href", "/admin/menus");
  await page.goto("/admin/menus");
  await expect(page.getByRole("heading", { name: "Menus", level: 1 })).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  const header = page.getByRole("list", { name: "Header menu items" });
  const add = page.getByRole("button", { name: "Add link to Header menu" });
  await expect.poll(() => add.evaluate((element) => Object.keys(element).some((key) => key.startsWith("__reactFiber")))).toBe(true);
  await add.click();
  const rows = header.getByRole("listitem");
  const count = await rows.count();
  const label = `Speaking ${Date.now().toString(36)}`;
  await rows.last().getByLabel("Label", { exact: true }).fill(label);
  await rows.last().getByLabel("Address", { exact: true }).fill("/speaking");
  // Keyboard reordering: Enter on "Move up" moves it, and the focus stays on the moved row's button.
  const up = page.getByRole("button", { name: `Move Header menu item ${count} (${label}) up` });
  await up.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: `Move Header menu item ${count - 1} (${label}) up` })).toBeFocused();
  await page.getByRole("button", { name: "Remove Header menu item 5 (Testimonials)" }).click();
  await page.getByRole("button", { name: "Save menus" }).click();
  await expect(toastWith(page, "Menus saved")).toBeVisible();

  const anonymous = await browser.newContext({ baseURL });
  const visitor = await anonymous.newPage();
  await visitor.goto("/");
  const main = visitor.getByRole("navigation", { name: "Main" });
  await expect(main.getByRole("link", { name: label })).toHaveAttribute("href", "/speaking");
  await expect(main.getByRole("link", { name: "Testimonials" })).toHaveCount(0);
  // Added last, moved up once: just before the 7Fs menu.
  const order = await main.getByRole("listitem").allTextContents();
  expect(order.findIndex((text) => text.includes(label))).toBe(order.findIndex((text) => text.includes("7Fs")) - 1);
  await expect(visitor.getByRole("contentinfo").getByRole("link", { name: "Hero Mockups" })).toHaveCount(0);
  await anonymous.close();

  await page.getByRole("button", { name: "Reset menus to default" }).click();
  await expect(toastWith(page, "Menus reset to the defaults")).toBeVisible();
  await page.goto("/");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: label })).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Testimonials" })).toBeVisible();
});
