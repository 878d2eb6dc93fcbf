import { E2E_ADMIN } from "./constants";
import { loginAs } from "./helpers/auth";
import { expect, test, type Locator, type Page } from "./helpers/test";
import { adminSidebar, expectNoSeriousAxeViolations, toastWith } from "./helpers/ui";

/** The Recent Roles timeline and the About and home lists are edited in the admin, and the public pages follow. */

async function openFromSidebar(page: Page, label: string): Promise<void> {
  await page.goto("/admin");
  const sidebar = await adminSidebar(page);
  await sidebar.getByRole("link", { name: label, exact: true }).click();
  await expect(page.getByRole("heading", { name: label, level: 1 })).toBeVisible();
}

/** React has hydrated this control (its fiber is attached), so what is typed now is not replaced by hydration. */
async function expectHydrated(control: Locator): Promise<void> {
  await expect.poll(() => control.evaluate((element) => Object.keys(element).some((key) => key.startsWith("__reactFiber")))).toBe(true);
}

test("recent roles: add a role, move it by keyboard, edit it, see it on /recent-roles, and delete it after confirming", async ({
  page,
}) => {
  // A long flow with several saves and axe checks: more than the default minute on a busy 2-core machine.
  test.slow();
  await loginAs(page, E2E_ADMIN);
  await openFromSidebar(page, "Recent Roles");
  await expectNoSeriousAxeViolations(page);
  const list = page.getByRole("list", { name: "Roles in display order" });
  await expect(list.getByRole("listitem")).toHaveCount(4);

  const title = `Staff Engineer ${Date.now().toString(36)}`;
  await page.getByRole("link", { name: "Add role" }).click();
  await expectHydrated(page.getByLabel("Title", { exact: true }));
  await page.getByLabel("Title", { exact: true }).fill(title);
  await page.getByLabel("Company", { exact: true }).fill("Analytical Engines Ltd");
  await page.getByLabel("Period (optional)").fill("2024 – 2026");
  await page.getByLabel("Description", { exact: true }).fill("Wove algebraic patterns.");
  await page.getByLabel("Highlights (optional)").fill("Punched the first card\nPrinted the first table");
  await expectNoSeriousAxeViolations(page);
  await page.getByRole("button", { name: "Add role" }).click();
  await expect(toastWith(page, "Role added")).toBeVisible();
  const name = `${title}, Analytical Engines Ltd`;
  // A new role goes to the top of the list.
  await expect(list.getByRole("listitem").first()).toContainText(title);

  // Keyboard reordering: the new (first) entry moves down with Enter on its button.
  const down = page.getByRole("button", { name: `Move ${name} down` });
  await down.focus();
  await page.keyboard.press("Enter");
  await expect(list.getByRole("listitem").first()).not.toContainText(title);
  await expect(list.getByRole("listitem").nth(1)).toContainText(title);

  await page.getByRole("link", { name: `Edit ${name}` }).click();
  await expectHydrated(page.getByLabel("Title", { exact: true }));
  await page.getByLabel("Title", { exact: true }).fill(`${title} II`);
  await page.getByRole("button", { name: "Save role" }).click();
  await expect(toastWith(page, "Role saved")).toBeVisible();

  await page.goto("/recent-roles");
  const timeline = page.getByRole("main").getByRole("list").first();
  const entry = page.getByRole("region", { name: `${title} II, Analytical Engines Ltd` });
  await expect(entry).toBeVisible();
  await expect(entry).toContainText("2024 – 2026");
  await expect(entry.getByRole("listitem")).toHaveText(["Punched the first card", "Printed the first table"]);
  // Second on the timeline, after the first demo role.
  await expect(timeline.locator(":scope > li").nth(1)).toContainText(`${title} II`);
  await expect(timeline.locator(":scope > li").last()).toContainText("Training and knowledge-base business");

  await page.goto("/admin/recent-roles");
  await page.getByRole("button", { name: `Delete ${title} II, Analytical Engines Ltd` }).click();
  await expect(page.getByRole("alertdialog")).toBeVisible();
  await page.getByRole("button", { name: "Delete role" }).click();
  await expect(toastWith(page, "Role deleted")).toBeVisible();
  await expect(list.getByRole("listitem")).toHaveCount(4);
  await page.goto("/recent-roles");
  await expect(page.getByText(`${title} II`)).toHaveCount(0);
});

test("about: the introduction, a skill and a certification change in the admin and show on /about and the home page", async ({ page }) => {
  // A long flow with several saves and axe checks: more than the default minute on a busy 2-core machine.
  test.slow();
  await loginAs(page, E2E_ADMIN);
  await openFromSidebar(page, "About");
  await expectNoSeriousAxeViolations(page);
  const skills = page.getByLabel("Skills", { exact: true });
  const certifications = page.getByLabel("Certifications", { exact: true });
  const education = page.getByLabel("Education", { exact: true });
  const intro = page.getByLabel("Introduction", { exact: true });
  await expectHydrated(skills);
  const original = {
    intro: await intro.inputValue(),
    skills: await skills.inputValue(),
    certifications: await certifications.inputValue(),
    education: await education.inputValue(),
  };
  expect(original.skills).toContain("Stakeholder management");
  expect(original.intro).toContain("still enjoys writing code");

  const tag = Date.now().toString(36);
  await intro.fill(`I design engines that weave ${tag}.`);
  // A new first line puts the item first on the page.
  await skills.fill(`Difference engines ${tag}\n${original.skills}`);
  await certifications.fill(`${original.certifications}\nCertified Engine Operator ${tag}`);
  // A malformed line is refused with a message naming it, and nothing is saved.
  await education.fill("Just a degree");
  await page.getByRole("button", { name: "Save page content" }).click();
  await expect(page.getByText('Education, line 1: write it as "Degree | School | Year"').first()).toBeVisible();
  await education.fill(original.education);
  await page.getByRole("button", { name: "Save page content" }).click();
  await expect(toastWith(page, "Page content saved")).toBeVisible();

  await page.goto("/about");
  await expect(page.getByText(`I design engines that weave ${tag}.`)).toBeVisible();
  await expect(page.getByRole("list", { name: "Skills" }).getByRole("listitem").first()).toHaveText(`Difference engines ${tag}`);
  await expect(page.getByRole("list", { name: "Certifications" }).getByRole("listitem").last()).toHaveText(
    `Certified Engine Operator ${tag}`,
  );
  await page.goto("/");
  await expect(page.getByRole("list", { name: "Certifications" }).getByRole("listitem").last()).toHaveText(
    `Certified Engine Operator ${tag}`,
  );

  // The demo lists back as they were, for the other specs.
  await page.goto("/admin/about");
  await expectHydrated(skills);
  await page.getByLabel("Introduction", { exact: true }).fill(original.intro);
  await page.getByLabel("Skills", { exact: true }).fill(original.skills);
  await page.getByLabel("Certifications", { exact: true }).fill(original.certifications);
  await page.getByRole("button", { name: "Save page content" }).click();
  await expect(toastWith(page, "Page content saved")).toBeVisible();
  await page.goto("/about");
  await expect(page.getByText(`Difference engines ${tag}`)).toHaveCount(0);
  await expect(page.getByText(`I design engines that weave ${tag}.`)).toHaveCount(0);
});

test("page texts: sentences changed in the admin show on /, /contact and /projects; Reset to default brings the spec's text back", async ({
  page,
}) => {
  // Three public pages visited twice, and four saves.
  test.slow();
  await loginAs(page, E2E_ADMIN);
  await openFromSidebar(page, "About");
  const eyebrow = page.getByLabel("Hero eyebrow", { exact: true });
  const contactHeading = page.getByLabel("Heading", { exact: true });
  const webHeading = page.getByLabel("Web projects heading", { exact: true });
  await expectHydrated(eyebrow);
  await expect(eyebrow).toHaveValue("Product · Project · Program · Apps");
  await expect(page.getByRole("button", { name: /^Reset to default/ })).toHaveCount(0);

  // A blank sentence is refused with a message that says how to get the original back.
  await contactHeading.fill("");
  await page.getByRole("button", { name: "Save page texts" }).click();
  await expect(page.getByText('Heading is required (use "Reset to default" for the original text)').first()).toBeVisible();

  const tag = Date.now().toString(36);
  await eyebrow.fill(`Speaker · Writer ${tag}`);
  await contactHeading.fill(`Say hello ${tag}`);
  await webHeading.fill(`Things I built ${tag}`);
  await page.getByRole("button", { name: "Save page texts" }).click();
  await expect(toastWith(page, "Page texts saved")).toBeVisible();
  await expect(page.getByText('Default: "Product · Project · Program · Apps"')).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  await page.goto("/");
  await expect(page.getByText(`Speaker · Writer ${tag}`, { exact: true })).toBeVisible();
  await page.goto("/contact");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Say hello ${tag}`);
  await page.goto("/projects");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Things I built ${tag}`);

  // Each field resets on its own; the others keep the owner's text until reset too.
  await page.goto("/admin/about");
  await expectHydrated(eyebrow);
  await page.getByRole("button", { name: "Reset to default: Home, Hero eyebrow" }).click();
  await expect(toastWith(page, "Page texts saved")).toBeVisible();
  await expect(eyebrow).toHaveValue("Product · Project · Program · Apps");
  await expect(contactHeading).toHaveValue(`Say hello ${tag}`);
  await page.getByRole("button", { name: "Reset to default: Contact, Heading" }).click();
  await expect(contactHeading).toHaveValue("Let's Connect");
  await page.getByRole("button", { name: "Reset to default: Projects, Web projects heading" }).click();
  await expect(webHeading).toHaveValue("Web Development Projects");
  await expect(page.getByRole("button", { name: /^Reset to default/ })).toHaveCount(0);

  await page.goto("/");
  await expect(page.getByText("Product · Project · Program · Apps", { exact: true })).toBeVisible();
  await page.goto("/contact");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Let's Connect");
  await page.goto("/projects");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Web Development Projects");
});
