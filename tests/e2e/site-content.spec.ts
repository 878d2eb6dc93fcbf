import { expect, test } from "./helpers/test";
import { E2E_ADMIN } from "./constants";
import { loginAs } from "./helpers/auth";
import { expectNoSeriousAxeViolations, toastWith } from "./helpers/ui";

/** The owner makes the site theirs from the admin, and the public pages follow. */
test("settings: the site name and contact email change in the admin and show on the pages, in titles and in RSS", async ({
  page,
  request,
}) => {
  await loginAs(page, E2E_ADMIN);
  await page.goto("/admin/settings");
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  const siteName = `E2E Studio ${Date.now().toString(36)}`;
  await page.getByLabel("Site name").fill(siteName);
  await page.getByLabel("Contact email").fill("owner@e2e.example");
  // A wrong address is refused with its message, before anything is saved.
  await page.getByLabel("Newsletter URL").fill("javascript:alert(1)");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Newsletter URL must be a web address starting with http:// or https://")).toBeVisible();
  await page.getByLabel("Newsletter URL").fill("https://news.e2e.example");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(toastWith(page, "Settings saved")).toBeVisible();

  await page.goto("/about");
  await expect(page).toHaveTitle(new RegExp(`\\| ${siteName}$`));
  await expect(page.getByRole("banner").getByRole("link", { name: siteName })).toBeVisible();
  await expect(page.getByRole("contentinfo")).toContainText(`${siteName}. All rights reserved.`);
  await page.goto("/contact");
  await expect(page.getByRole("link", { name: "owner@e2e.example" })).toBeVisible();
  const rss = await (await request.get("/rss.xml")).text();
  expect(rss).toContain(`<title>7 Fs Framework — ${siteName}</title>`);
});

test("testimonials: add one, see it on the public page, hide it, and delete it after confirming", async ({ page }) => {
  // A long flow with several saves and axe checks: more than the default minute on a busy 2-core machine.
  test.slow();
  await loginAs(page, E2E_ADMIN);
  await page.goto("/admin/testimonials");
  await expect(page.getByRole("heading", { name: "Testimonials", level: 1 })).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  const name = `Ada ${Date.now().toString(36)}`;
  await page.getByRole("link", { name: "Add testimonial" }).click();
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Job title").fill("Analyst");
  await page.getByLabel("Quote").fill("The engine weaves algebraic patterns.");
  await expectNoSeriousAxeViolations(page);
  await page.getByRole("button", { name: "Add testimonial" }).click();
  await expect(toastWith(page, "Testimonial added")).toBeVisible();

  // A new testimonial goes to the top; the keyboard moves it down with Enter on its button.
  const items = page.getByRole("list", { name: "Testimonials in display order" }).getByRole("listitem");
  await expect(items.first()).toContainText(name);
  const down = page.getByRole("button", { name: `Move ${name} down` });
  await down.focus();
  await page.keyboard.press("Enter");
  await expect(items.first()).not.toContainText(name);
  await expect(items.nth(1)).toContainText(name);

  await page.goto("/testimonials");
  await expect(page.getByText("The engine weaves algebraic patterns.")).toBeVisible();

  await page.goto("/admin/testimonials");
  await page.getByRole("button", { name: `Hide ${name}` }).click();
  await expect(page.getByRole("button", { name: `Show ${name}` })).toBeVisible();
  await page.goto("/testimonials");
  await expect(page.getByText("The engine weaves algebraic patterns.")).toHaveCount(0);

  await page.goto("/admin/testimonials");
  await page.getByRole("button", { name: `Delete ${name}` }).click();
  await expect(page.getByRole("alertdialog")).toBeVisible();
  await page.getByRole("button", { name: "Delete testimonial" }).click();
  await expect(toastWith(page, "Testimonial deleted")).toBeVisible();
  await expect(page.getByRole("button", { name: `Delete ${name}` })).toHaveCount(0);
});
