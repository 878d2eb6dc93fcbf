import { E2E_ADMIN } from "./constants";
import { loginAs } from "./helpers/auth";
import { expect, test } from "./helpers/test";
import { adminSidebar, expectNoSeriousAxeViolations, gotoHydrated, toastWith } from "./helpers/ui";

/** The owner's own page: created in the editor, published, linked in the header and a footer column, visited, unpublished. */
test("pages: create and publish a page, link it in the header and footer, visit it, unpublish it (404)", async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  test.skip(testInfo.project.name !== "desktop", "the top bar's links show on desktop widths");
  test.setTimeout(300_000);
  const id = Date.now().toString(36);
  const title = `Uses ${id}`;
  const address = `uses-${id}`;
  await loginAs(page, E2E_ADMIN);
  await page.goto("/admin");
  await expect((await adminSidebar(page)).getByRole("link", { name: "Pages", exact: true })).toHaveAttribute("href", "/admin/pages");
  await gotoHydrated(page, "/admin/pages");
  await expect(page.getByRole("heading", { name: "Pages", level: 1 })).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  // A reserved address is refused with a message naming it.
  await page.getByRole("link", { name: "New page" }).click();
  await expect(page.getByRole("heading", { name: "New page", level: 1 })).toBeVisible();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByLabel("Title", { exact: true }).fill(title);
  await page.getByLabel("Address", { exact: true }).fill("/about");
  await page.getByRole("textbox", { name: "Content", exact: true }).fill("The **tools** I use every day.");
  await page.getByLabel(/^Published/).check();
  await page.getByRole("button", { name: "Create page" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "The address /about belongs to the site itself" }).first()).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  await page.getByLabel("Address", { exact: true }).fill(`/${address}`);
  // The editor's Preview renders on the server, like the posts' editor.
  await page.getByRole("tab", { name: "Preview" }).click();
  await expect(page.getByTestId("post-content").locator("strong")).toHaveText("tools");
  await page.getByRole("tab", { name: "Write" }).click();
  await page.getByRole("button", { name: "Create page" }).click();
  await expect(toastWith(page, "Page created")).toBeVisible();
  await expect(page.getByRole("heading", { name: `Edit page: ${title}`, level: 1 })).toBeVisible();

  // Linked in the header and in the first footer column.
  await gotoHydrated(page, "/admin/menus");
  const option = `${title} (/${address})`;
  const choosers = page.getByRole("combobox", { name: "Page", exact: true });
  await choosers.nth(0).selectOption({ label: option });
  await page.getByRole("button", { name: "Add page to Header menu" }).click();
  // Room in the top bar for the new item at every desktop width.
  await page.getByRole("button", { name: "Remove Header menu item 5 (Testimonials)" }).click();
  await choosers.nth(1).selectOption({ label: option });
  await page.getByRole("button", { name: "Add page to Footer column 1" }).click();
  const visitor = await (await browser.newContext({ baseURL })).newPage();
  await page.getByRole("button", { name: "Save menus" }).click();
  await expect(toastWith(page, "Menus saved")).toBeVisible();
  await visitor.goto("/");
  await expect(visitor.getByRole("contentinfo").getByRole("link", { name: title })).toHaveAttribute("href", `/${address}`);
  const headerLink = visitor.getByRole("navigation", { name: "Main" }).getByRole("link", { name: title });
  await expect(headerLink).toHaveAttribute("href", `/${address}`);
  await headerLink.click();
  await expect(visitor).toHaveURL(new RegExp(`/${address}$`));
  await expect(visitor.getByRole("heading", { name: title, level: 1 })).toBeVisible();
  await expect(visitor.getByTestId("post-content").locator("strong")).toHaveText("tools");
  await expectNoSeriousAxeViolations(visitor);

  // Unpublished: the site's 404 for the visitor, and the menu items go.
  await gotoHydrated(page, "/admin/pages");
  await page.getByRole("link", { name: title }).click();
  await expect(page.getByRole("heading", { name: `Edit page: ${title}`, level: 1 })).toBeVisible();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.getByLabel(/^Published/).uncheck();
  await page.getByRole("button", { name: "Save page" }).click();
  await expect(toastWith(page, "Page saved")).toBeVisible();

  const gone = await visitor.goto(`/${address}`);
  expect(gone?.status()).toBe(404);
  await expect(visitor.getByRole("heading", { name: "404", level: 1 })).toBeVisible();
  await visitor.goto("/");
  await expect(visitor.getByRole("link", { name: title })).toHaveCount(0);
  await visitor.context().close();

  // Leave the site as it was: default menus, no page.
  await gotoHydrated(page, "/admin/menus");
  await page.getByRole("button", { name: "Reset menus to default" }).click();
  await expect(toastWith(page, "Menus reset to the defaults")).toBeVisible();
  await gotoHydrated(page, "/admin/pages");
  await page.getByRole("button", { name: `Delete ${title}` }).click();
  await page.getByRole("button", { name: "Delete page" }).click();
  await expect(toastWith(page, "Page deleted")).toBeVisible();
});
