import { E2E_ADMIN } from "./constants";
import { loginAs } from "./helpers/auth";
import { withOwnServer } from "./helpers/own-server";
import { expect, test, type Page } from "./helpers/test";
import { expectNoSeriousAxeViolations, toastWith } from "./helpers/ui";

/**
 * The owner's links and the demo's removal, on a server of this spec's own (a copy of the seeded site):
 * removing the demo content changes what every other spec expects to find.
 */
test.describe.configure({ mode: "serial", timeout: 180_000 });
const own = withOwnServer("e2e-demo-content-", () => ({}));

async function hydrated(page: Page, path: string) {
  await page.goto(`${own.server.url}${path}`);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

test("settings: a social link added as a row, moved up, saved and shown in the footer; then removed", async ({ browser }, testInfo) => {
  test.skip(testInfo.project.name !== "desktop", "one width is enough for the settings form");
  const context = await browser.newContext({ baseURL: own.server.url });
  const page = await context.newPage();
  await loginAs(page, E2E_ADMIN);
  await hydrated(page, "/admin/settings");
  const social = page.getByRole("list", { name: "Social links" });
  const rows = social.getByRole("listitem");
  await expect(rows).toHaveCount(3);
  await expectNoSeriousAxeViolations(page);

  await page.getByRole("button", { name: "Add link" }).first().click();
  await expect(rows).toHaveCount(4);
  const added = page.getByRole("group", { name: "Social link 4" });
  await expect(added.getByLabel("Label", { exact: true })).toBeFocused();
  await added.getByLabel("Label", { exact: true }).fill("Mastodon");
  await added.getByLabel("Address", { exact: true }).fill("https://social.example/@maya");
  // By keyboard: Enter on "Move up", and the focus stays on the moved row's button.
  await page.getByRole("button", { name: "Move Social link 4 (Mastodon) up" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Move Social link 3 (Mastodon) up" })).toBeFocused();
  await expect(page.getByRole("group", { name: "Social link 3" }).getByLabel("Address", { exact: true })).toHaveValue(
    "https://social.example/@maya",
  );
  // A wrong address is named by its row, under the row's field.
  await page.getByRole("group", { name: "Social link 1" }).getByLabel("Address", { exact: true }).fill("javascript:alert(1)");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(
    page.getByText(
      "Social links, link 1: the address must be a web address starting with http:// or https://, or mailto: and an email address",
    ),
  ).toBeVisible();
  await page.getByRole("group", { name: "Social link 1" }).getByLabel("Address", { exact: true }).fill("https://www.linkedin.com/in/maya");
  await expectNoSeriousAxeViolations(page);
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(toastWith(page, "Settings saved")).toBeVisible();

  const visitor = await browser.newContext({ baseURL: own.server.url });
  const home = await visitor.newPage();
  await home.goto("/");
  const footerLinks = home.getByRole("contentinfo").getByRole("list", { name: "Social links" }).getByRole("link");
  await expect(footerLinks).toHaveCount(4);
  await expect(footerLinks.nth(2)).toHaveText("Mastodon");
  await expect(footerLinks.nth(2)).toHaveAttribute("href", "https://social.example/@maya");

  await hydrated(page, "/admin/settings");
  await page.getByRole("button", { name: "Remove Social link 3 (Mastodon)" }).click();
  await expect(rows).toHaveCount(3);
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(toastWith(page, "Settings saved")).toBeVisible();
  await home.reload();
  await expect(footerLinks).toHaveCount(3);
  await expect(home.getByRole("contentinfo").getByRole("link", { name: "Mastodon" })).toHaveCount(0);
  await visitor.close();
  await context.close();
});

test("remove demo content: the confirmation lists it, an edited demo post stays, the rest goes", async ({ browser }, testInfo) => {
  test.skip(testInfo.project.name !== "desktop", "one width is enough for the admin screens");
  const context = await browser.newContext({ baseURL: own.server.url });
  const page = await context.newPage();
  await loginAs(page, E2E_ADMIN);

  // The owner edits one demo post.
  const kept = { title: "A Simple Budget That Survives Real Life", path: "/7fs/Finance/a-simple-budget-that-survives-real-life" };
  await hydrated(page, `${kept.path}/edit`);
  const content = page.getByLabel("Content");
  await content.fill(`${await content.inputValue()}\n\nMy own note on budgets.`);
  await page.getByRole("button", { name: "Update Post" }).click();
  await expect(page).toHaveURL(new RegExp(`${kept.path}$`));
  await expect(page.getByText("My own note on budgets.")).toBeVisible();

  await hydrated(page, "/admin/settings");
  await page.getByRole("button", { name: "Remove demo content" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Remove the demo content?" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Starting Each Week with Purpose");
  await expect(dialog).not.toContainText(kept.title);
  for (const kind of ["Demo posts", "Projects", "Testimonials", "Recent Roles", "Resume", "Portrait"])
    await expect(dialog).toContainText(kind);
  await expectNoSeriousAxeViolations(page);
  await dialog.getByRole("button", { name: "Remove demo content" }).click();
  await expect(toastWith(page, "Demo content removed")).toBeVisible();
  await expect(page.getByText("No demo content is left")).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  const visitor = await browser.newContext({ baseURL: own.server.url });
  const reader = await visitor.newPage();
  expect((await reader.goto(kept.path))?.status()).toBe(200);
  expect((await reader.goto("/7fs/Faith/starting-each-week-with-purpose"))?.status()).toBe(404);
  await reader.goto("/testimonials");
  await expect(reader.getByText("Sarah Mitchell")).toHaveCount(0);
  // The shipped resume is no longer served.
  expect((await reader.request.get("/resume.pdf", { maxRedirects: 0 })).status()).toBe(404);
  await visitor.close();

  await page.goto(`${own.server.url}/admin/audit`);
  await expect(page.getByText(/removed \d+ posts?, .*and the resume/).first()).toBeVisible();
  await context.close();
});
