import { expect, test, type Page } from "./helpers/test";
import { E2E_ADMIN, E2E_MODERATOR } from "./constants";
import { loginAs } from "./helpers/auth";
import { expectNoSeriousAxeViolations, toastWith, gotoHydrated } from "./helpers/ui";

const slugOf = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, "-");

/** "YYYY-MM-DDTHH:mm:ss" of `date` in UTC (the e2e server's SITE_TIME_ZONE is the default, UTC). */
const utcLocal = (date: Date) => date.toISOString().slice(0, 19);

async function createPost(page: Page, category: string, title: string, content: string, { publish = true } = {}) {
  await gotoHydrated(page, `/7fs/${category}/new`);
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Content").fill(content);
  if (publish) await page.getByRole("switch", { name: "Publish immediately" }).click();
  await page.getByRole("button", { name: "Create Post" }).click();
  await expect(page).toHaveURL(new RegExp(`/7fs/${category}/${slugOf(title)}$`));
}

test("a post scheduled ~20 s ahead stays hidden, then appears on its category page with no request in between", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const title = `E2E Scheduled ${Date.now()}`;
  const slug = slugOf(title);
  await loginAs(page, E2E_ADMIN);
  await gotoHydrated(page, "/7fs/Family/new");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Content").fill("Published by the server at its time.");
  await page.getByRole("switch", { name: "Schedule" }).click();
  await expect(page.getByText("Time zone: UTC")).toBeVisible();
  const at = new Date(Math.ceil((Date.now() + 20_000) / 1000) * 1000);
  await page.getByLabel("Publish at").fill(utcLocal(at));
  await expectNoSeriousAxeViolations(page, { exclude: ["[data-sonner-toaster]"] });
  await page.getByRole("button", { name: "Create Post" }).click();
  await expect(page).toHaveURL(new RegExp(`/7fs/Family/${slug}$`));

  // Visitors (no session): 404 at its address, absent from the category, RSS and sitemap.
  expect((await request.get(`/7fs/Family/${slug}`)).status()).toBe(404);
  expect(await (await request.get("/7fs/Family")).text()).not.toContain(title);
  expect(await (await request.get("/rss.xml")).text()).not.toContain(title);
  expect(await (await request.get("/sitemap.xml")).text()).not.toContain(slug);

  // Blog management shows it as scheduled, with its time, under 'Scheduled (n)' and offers a preview.
  await page.goto("/admin/blog?filter=scheduled");
  const row = page.getByRole("listitem").filter({ hasText: title });
  await expect(row.getByText("Scheduled", { exact: true })).toBeVisible();
  await expect(row.getByText("(UTC)")).toBeVisible();
  await expect(page.getByRole("link", { name: /^Scheduled \(\d+\)$/ })).toBeVisible();
  await expect(row.getByRole("link", { name: `Preview ${title}` })).toHaveAttribute("href", `/7fs/Family/${slug}`);
  await page.goto("/admin");
  await expect(page.getByTestId("counter-Scheduled")).not.toHaveText("0");

  // No request reaches the server until the time has passed: the job runner publishes on its own.
  await page.goto("about:blank");
  const wait = at.getTime() - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  await expect.poll(async () => (await request.get("/7fs/Family")).text(), { timeout: 15_000, intervals: [500] }).toContain(title);
  expect((await request.get(`/7fs/Family/${slug}`)).status()).toBe(200);
});

test("a save based on an older version is refused and the typed text is kept (two editors)", async ({ browser }) => {
  const title = `E2E Conflict ${Date.now()}`;
  const one = await browser.newContext();
  const two = await browser.newContext();
  const first = await one.newPage();
  const second = await two.newPage();
  await loginAs(first, E2E_ADMIN);
  await loginAs(second, E2E_MODERATOR);
  await createPost(first, "Fun", title, "Original text.");
  const editUrl = `/7fs/Fun/${slugOf(title)}/edit`;
  await gotoHydrated(first, editUrl);
  await gotoHydrated(second, editUrl);

  await first.getByLabel("Content").fill("The first editor's text.");
  await first.getByRole("button", { name: "Update Post" }).click();
  await expect(first).toHaveURL(new RegExp(`/7fs/Fun/${slugOf(title)}$`));

  await second.getByLabel("Content").fill("The second editor's text.");
  await second.getByRole("button", { name: "Update Post" }).click();
  await expect(toastWith(second, "Error", "This post was changed by someone else. Reload to see their changes.")).toBeVisible();
  await expect(second).toHaveURL(new RegExp(`${editUrl}$`));
  await expect(second.getByLabel("Content")).toHaveValue("The second editor's text.");
  await first.goto(`/7fs/Fun/${slugOf(title)}`);
  await expect(first.getByText("The first editor's text.")).toBeVisible();
  await one.close();
  await two.close();
});

test("revisions list newest first with a word diff, and 'Restore this revision' loads one into the form", async ({ page }) => {
  const title = `E2E Revised ${Date.now()}`;
  await loginAs(page, E2E_ADMIN);
  await createPost(page, "Faith", title, "The quick brown fox jumps.");
  const editUrl = `/7fs/Faith/${slugOf(title)}/edit`;
  await gotoHydrated(page, editUrl);
  await page.getByLabel("Content").fill("The quick red fox leaps.");
  await page.getByRole("button", { name: "Update Post" }).click();
  await expect(page).toHaveURL(new RegExp(`/7fs/Faith/${slugOf(title)}$`));

  await gotoHydrated(page, editUrl);
  await page.getByRole("button", { name: "Revisions" }).click();
  const dialog = page.getByRole("dialog", { name: "Revisions" });
  const items = dialog.getByRole("list", { name: "Revisions, newest first" }).getByRole("listitem");
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText("Saved");
  await expect(items.nth(0)).toContainText(E2E_ADMIN.email);
  await expect(items.nth(1)).toContainText("Published");
  await expect(items.nth(0)).toContainText(/ago/);
  await expect(dialog.getByText("Same as the current text.")).toBeVisible();

  await items.nth(1).getByRole("button").click();
  const diff = dialog.getByTestId("revision-diff");
  await expect(diff.locator("del")).toHaveText(["brown", "jumps"]);
  await expect(diff.locator("ins")).toHaveText(["red", "leaps"]);
  await expectNoSeriousAxeViolations(page, { exclude: ["[data-sonner-toaster]"] });
  await dialog.getByRole("button", { name: "Restore this revision" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByLabel("Content")).toHaveValue("The quick brown fox jumps.");
  // Restoring changes only the form: the post keeps its text until the author saves.
  await page.getByRole("button", { name: "Update Post" }).click();
  await expect(page.getByText("The quick brown fox jumps.")).toBeVisible();
});

test("autosave keeps typed text without publishing it; reopening offers 'Restore unsaved changes' or 'Discard'", async ({
  page,
  request,
}) => {
  const title = `E2E Autosaved ${Date.now()}`;
  const slug = slugOf(title);
  await loginAs(page, E2E_ADMIN);
  await createPost(page, "Friends", title, "The live text.");
  const editUrl = `/7fs/Friends/${slug}/edit`;
  await gotoHydrated(page, editUrl);
  const status = page.getByTestId("autosave-status");
  // Hold the autosave request until 'Saving…' has been seen, so the test does not race it.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/posts/autosave", async (route) => {
    await held;
    await route.continue();
  });
  await page.getByLabel("Content").fill("A pending draft, not yet live.");
  await expect(status).toHaveText("Saving…");
  release();
  await expect(status).toHaveText("Saved");
  await page.unroute("**/api/posts/autosave");
  // The published post still shows its live text.
  expect(await (await request.get(`/7fs/Friends/${slug}`)).text()).toContain("The live text.");

  // Reload (the leave confirmation is for unsaved text; this text is saved on the server).
  page.once("dialog", (d) => void d.accept());
  await page.reload();
  const offer = page.getByRole("region", { name: "Unsaved changes" });
  await expect(offer).toContainText(/You have unsaved changes from .+\(UTC\)/);
  await expect(page.getByLabel("Content")).toHaveValue("The live text.");
  await offer.getByRole("button", { name: "Restore unsaved changes" }).click();
  await expect(offer).toBeHidden();
  await expect(page.getByLabel("Content")).toHaveValue("A pending draft, not yet live.");

  // Discard: gone for good, also after another reload.
  page.once("dialog", (d) => void d.accept());
  await page.reload();
  const discardResponse = page.waitForResponse((r) => r.url().endsWith("/api/posts/autosave") && r.request().method() === "POST");
  await page.getByRole("region", { name: "Unsaved changes" }).getByRole("button", { name: "Discard" }).click();
  expect((await discardResponse).ok()).toBe(true);
  await page.reload();
  await expect(page.getByLabel("Content")).toHaveValue("The live text.");
  await expect(page.getByRole("region", { name: "Unsaved changes" })).toHaveCount(0);
});

test("autosave says 'Not saved, retrying' while the server cannot be reached, then saves", async ({ page }) => {
  await loginAs(page, E2E_ADMIN);
  await gotoHydrated(page, "/7fs/Figurehead/new");
  let failing = true;
  await page.route("**/api/posts/autosave", (route) => (failing ? route.abort() : route.continue()));
  await page.getByLabel("Title").fill(`E2E Offline ${Date.now()}`);
  const status = page.getByTestId("autosave-status");
  await expect(status).toHaveText("Not saved, retrying");
  await expect(status).toHaveAttribute("role", "status");
  failing = false;
  await expect(status).toHaveText("Saved", { timeout: 15_000 });
});
