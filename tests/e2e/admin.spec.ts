import fs from "node:fs";
import { expect, test } from "./helpers/test";
import { E2E_ADMIN, E2E_MODERATOR, E2E_USER, SAME_ON_PHONES } from "./constants";
import { loginAs } from "./helpers/auth";
import { adminSidebar, expectNoSeriousAxeViolations, toastWith } from "./helpers/ui";

// Read, not imported: Playwright loads specs as Node ES modules, which import JSON only with an attribute.
const packageJson = JSON.parse(fs.readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };

test("admin shell: sidebar entries, footer, dashboard counters, collapsible with Ctrl+B and a 7-day cookie", async ({ page }) => {
  await loginAs(page, E2E_ADMIN);
  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  await expect(page.getByText("Welcome back! Here's an overview of your content.")).toBeVisible();
  for (const label of ["Total Posts", "Published", "Drafts", "Projects"]) {
    await expect(page.getByTestId(`counter-${label}`)).toHaveText(/^\d+$/);
  }
  await expect(page.getByRole("heading", { name: "Quick Actions" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Getting Started" })).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  const sidebar = await adminSidebar(page);
  await expect(sidebar.getByText("Admin Panel")).toBeVisible();
  const nav = sidebar.getByRole("navigation", { name: "Admin" });
  await expect(nav.getByRole("link")).toHaveText([
    "Dashboard",
    "Blog Management",
    "Media",
    "Statistics",
    "Projects",
    "Users",
    // With an unread count when messages wait (another spec may have sent one).
    /^Messages(\s*\d+\+? unread)?$/,
    /^Comments(\s*\d+\+? pending)?$/,
    "Bookings",
    "Subscribers",
    "Testimonials",
    "Recent Roles",
    "About",
    "Pages",
    "Settings",
    "Menus",
    "Email",
    "Mail log",
    "Audit log",
    "Account",
  ]);
  await expect(sidebar.getByText("AD", { exact: true })).toBeVisible();
  await expect(sidebar.getByText(E2E_ADMIN.email)).toBeVisible();
  await expect(sidebar.getByText("Administrator", { exact: true })).toBeVisible();
  // The running release, so the owner can tell which version an instance serves.
  await expect(sidebar.getByTestId("app-version")).toHaveText(`Version ${packageJson.version}`);
  await expect(sidebar.getByRole("button", { name: "Logout" })).toBeVisible();

  // SPEC §2 "Shared layout": the sidebar toggle sits in the top bar on admin routes.
  const headerToggle = page.getByRole("banner").getByRole("button", { name: "Toggle Sidebar" });
  await expect(headerToggle).toBeVisible();
  if ((page.viewportSize()?.width ?? 1280) >= 768) {
    const aside = page.getByTestId("admin-sidebar");
    await expect(aside).toHaveCSS("width", "256px");
    await headerToggle.click();
    await expect(aside).toHaveCSS("width", "48px");
    await expect(headerToggle).toHaveAttribute("aria-expanded", "false");
    await headerToggle.click();
    await expect(aside).toHaveCSS("width", "256px");
    await page.keyboard.press("Control+b");
    await expect(aside).toHaveCSS("width", "48px");
    const cookie = (await page.context().cookies()).find((c) => c.name === "sidebar_state");
    expect(cookie?.value).toBe("false");
    expect((cookie?.expires ?? 0) - Date.now() / 1000).toBeGreaterThan(604_800 - 60);
    await page.reload();
    await expect(aside).toHaveCSS("width", "48px");
    await page.keyboard.press("Meta+b");
    await expect(aside).toHaveCSS("width", "256px");
  } else {
    await expect(page.getByRole("dialog", { name: "Admin Panel" })).toHaveCSS("width", "288px");
  }
  // Not on public pages.
  await page.goto("/about");
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Toggle Sidebar" })).toHaveCount(0);
});

test("projects: add with validation, edit, reorder with the keyboard, delete after confirmation", async ({ page }) => {
  const title = `E2E Project ${Date.now()} ${test.info().project.name}`;
  await loginAs(page, E2E_ADMIN);
  await page.goto("/admin/projects");
  await expect(page.getByRole("heading", { name: "Project Management" })).toBeVisible();

  await page.getByRole("link", { name: "Add Project" }).click();
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Description").fill("Built by the e2e suite.");
  await page.getByLabel("Project URL (optional)").fill("not a url");
  await page.getByRole("button", { name: "Create Project" }).click();
  await expect(page.getByText("Project URL must be a full web address starting with http:// or https://").first()).toBeVisible();
  await page.getByLabel("Project URL (optional)").fill("https://example.com/e2e");
  await page.getByLabel("Featured").check();
  await page.getByRole("button", { name: "Create Project" }).click();
  await expect(toastWith(page, "Project created")).toBeVisible();

  const item = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title }) });
  await expect(item.getByText("Featured")).toBeVisible();
  await expect(item.getByRole("link", { name: /View Live/ })).toHaveAttribute("href", "https://example.com/e2e");
  await expectNoSeriousAxeViolations(page);

  // New projects go first; move it down with the keyboard and check the order changed.
  const headings = page.getByRole("list", { name: "Projects in display order" }).getByRole("heading");
  const before = await headings.allTextContents();
  expect(before[0]).toBe(title);
  await item.getByRole("button", { name: `Move ${title} down` }).focus();
  await page.keyboard.press("Enter");
  await expect.poll(async () => (await headings.allTextContents()).indexOf(title)).toBe(1);
  await expect(item.getByRole("button", { name: `Move ${title} down` })).toBeFocused();

  await item.getByRole("link", { name: `Edit ${title}` }).click();
  await page.getByLabel("Title").fill(`${title} (edited)`);
  await page.getByRole("button", { name: "Update Project" }).click();
  await expect(toastWith(page, "Project updated")).toBeVisible();
  const edited = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: `${title} (edited)` }) });
  await expect(edited).toBeVisible();

  await edited.getByRole("button", { name: `Delete ${title} (edited)` }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog.getByText("Delete this project?")).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(edited).toBeVisible();
  await edited.getByRole("button", { name: `Delete ${title} (edited)` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete Project" }).click();
  await expect(toastWith(page, "Project deleted")).toBeVisible();
  await expect(page.getByRole("heading", { name: `${title} (edited)` })).toHaveCount(0);
});

test("a moderator's sidebar holds posts, comments and their account only; the owner's areas answer 403", async ({ page }) => {
  await loginAs(page, E2E_MODERATOR);
  await page.goto("/admin");
  const sidebar = await adminSidebar(page);
  await expect(sidebar.getByText("Moderator", { exact: true })).toBeVisible();
  const nav = sidebar.getByRole("navigation", { name: "Admin" });
  // Least privilege: no inbox (client leads), About/CV, roles, testimonials, settings, users or projects.
  await expect(nav.getByRole("link")).toHaveText(["Dashboard", "Blog Management", "Media", /^Comments(\s*\d+\+? pending)?$/, "Account"]);
  for (const path of ["/admin/messages", "/admin/about", "/admin/testimonials", "/admin/recent-roles"]) {
    expect((await page.request.get(path)).status(), path).toBe(403);
  }

  const page403 = await page.goto("/admin/projects");
  expect(page403?.status()).toBe(403);
  await expect(page.getByText("Only administrators can manage projects.")).toBeVisible();
  const write = await page.request.post("/admin/projects", { form: { intent: "create", title: "Should not exist", type: "web" } });
  expect(write.status()).toBe(403);
  expect((await page.request.get("/admin/users")).status()).toBe(403);
});

test("a plain user is sent home with Access Denied; anonymous visitors go to /auth", { tag: SAME_ON_PHONES }, async ({ page }) => {
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/auth$/);
  await loginAs(page, E2E_USER);
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/$/);
  await expect(toastWith(page, "Access Denied", "You don't have permission to access the admin area.")).toBeVisible();
});

test("users: create with a generated password, grant and revoke moderator", async ({ page, browser }) => {
  const email = `staff-${Date.now()}-${test.info().project.name}@example.com`;
  await loginAs(page, E2E_ADMIN);
  await page.goto("/admin/users");
  await expect(page.getByRole("heading", { name: "Users", exact: true })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Create User" }).click();
  const generated = await page.getByTestId("generated-password").textContent();
  expect(generated?.length).toBeGreaterThanOrEqual(20);
  const row = page.getByRole("row").filter({ has: page.getByRole("cell", { name: email, exact: true }) });
  await expect(row.getByText("User", { exact: true })).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  await row.getByRole("button", { name: `Grant Moderator for ${email}` }).click();
  await expect(row.getByText("Moderator", { exact: true })).toBeVisible();

  // The new account signs in with the generated password and reaches the admin area as a moderator.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await loginAs(otherPage, { email, password: generated ?? "" });
  await otherPage.goto("/admin");
  await expect(otherPage.getByRole("heading", { name: "Dashboard" })).toBeVisible();

  await row.getByRole("button", { name: `Revoke Moderator for ${email}` }).click();
  await expect(row.getByText("User", { exact: true })).toBeVisible();
  await otherPage.goto("/admin");
  await expect(otherPage).toHaveURL(/\/$/);
  await other.close();
});
