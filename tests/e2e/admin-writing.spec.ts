import AxeBuilder from "@axe-core/playwright";
import { png } from "../fixtures/images";
import { E2E_ADMIN } from "./constants";
import { loginAs } from "./helpers/auth";
import { expect, test, type Page } from "./helpers/test";
import { expectNoSeriousAxeViolations, gotoHydrated, toastWith } from "./helpers/ui";

const slugOf = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, "-");

/** axe's heading-order rule alone on the page: no violation. */
async function expectHeadingOrder(page: Page) {
  const results = await new AxeBuilder({ page }).withRules(["heading-order"]).analyze();
  expect(results.violations.map((v) => v.nodes.map((n) => n.target))).toEqual([]);
}

/** The relative luminance of an rgb() colour, 0 (black) to 1 (white). */
function luminance(rgb: string): number {
  const [r = 0, g = 0, b = 0] = (rgb.match(/\d+/g) ?? []).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

test.beforeEach(async ({ page }) => {
  await loginAs(page, E2E_ADMIN);
});

test("New post from the dashboard opens the editor in the admin shell; the published post has h2 headings and dark code in dark mode", async ({
  page,
  isMobile,
}) => {
  test.slow();
  const title = `Admin writing ${Date.now()}`;
  await gotoHydrated(page, "/admin");
  await page.getByRole("main").getByRole("button", { name: "New post" }).click();
  await page.getByRole("menuitem", { name: "Fitness" }).click();
  await expect(page).toHaveURL(/\/7fs\/Fitness\/new$/);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });

  // The admin shell, not the public chrome.
  await expect(page.getByRole("heading", { level: 1, name: "Create New Post - Fitness" })).toBeVisible();
  // On a phone the sidebar is a drawer the toggle button opens: the button stands for the shell there.
  const shell = isMobile ? page.getByRole("button", { name: "Toggle Sidebar" }) : page.getByTestId("admin-sidebar");
  await expect(shell).toBeVisible();
  await expect(page.getByRole("button", { name: "Toggle Sidebar" })).toBeVisible();
  await expect(page.getByRole("contentinfo")).toHaveCount(0);
  await expect(page.getByRole("main")).toHaveCount(1);

  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Content").fill("## Why bother\n\nThree words here.\n\n### Details\n\n```ts\nconst answer = 42;\n```");
  await expect(page.getByTestId("word-count")).toHaveText("9 words");

  // Distraction-free mode hides the shell and the other fields; Esc leaves it.
  await page.getByRole("button", { name: "Distraction-free mode" }).click();
  await expect(shell).toBeHidden();
  await expect(page.getByRole("toolbar", { name: "Formatting" })).toBeHidden();
  await expect(page.getByLabel("Excerpt (optional)")).toBeHidden();
  await expect(page.getByLabel("Content")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(shell).toBeVisible();
  await expect(page.getByLabel("Excerpt (optional)")).toBeVisible();
  await expectNoSeriousAxeViolations(page, { exclude: ["[data-sonner-toaster]"] });

  await page.getByRole("switch", { name: "Publish immediately" }).click();
  await page.getByRole("button", { name: "Create Post" }).click();
  await expect(page).toHaveURL(new RegExp(`/7fs/Fitness/${slugOf(title)}$`));
  await expect(toastWith(page, "Post created successfully!")).toBeVisible();

  // The public post: '##' is the h2 under the title's h1, and no level is skipped.
  await expect(page.getByRole("heading", { level: 2, name: "Why bother" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 3, name: "Details" })).toBeVisible();
  await expectHeadingOrder(page);

  // Dark mode: the code block is dark, its text light (both themes come with the page's CSS).
  await page.emulateMedia({ colorScheme: "dark" });
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  const pre = page.getByTestId("post-content").locator("pre.shiki");
  const colors = await pre.evaluate((el) => ({ bg: getComputedStyle(el).backgroundColor, fg: getComputedStyle(el).color }));
  expect(luminance(colors.bg)).toBeLessThan(0.05);
  expect(luminance(colors.fg)).toBeGreaterThan(0.6);

  // The edit page has 'View post' and 'Last saved …'.
  await gotoHydrated(page, `/7fs/Fitness/${slugOf(title)}/edit`);
  await expect(page.getByTestId("last-saved")).toHaveText(/^Last saved .+\(UTC\)$/);
  await expect(page.getByRole("link", { name: "View post" })).toHaveAttribute("href", `/7fs/Fitness/${slugOf(title)}`);
});

test("a post using all six heading levels passes axe's heading-order", async ({ page }) => {
  const title = `Six levels ${Date.now()}`;
  await gotoHydrated(page, "/7fs/Fun/new");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Content").fill("# One\n\n### Three\n\n## Two\n\n###### Six\n\n#### Four\n\n##### Five\n\n# One again");
  await page.getByRole("switch", { name: "Publish immediately" }).click();
  await page.getByRole("button", { name: "Create Post" }).click();
  await expect(page).toHaveURL(new RegExp(`/7fs/Fun/${slugOf(title)}$`));
  await expect(page.getByRole("heading", { level: 2, name: "One", exact: true })).toBeVisible();
  await expectHeadingOrder(page);
});

test("a scheduled post's toast and badge say when it goes live", async ({ page }) => {
  const title = `Scheduled toast ${Date.now()}`;
  await gotoHydrated(page, "/7fs/Friends/new");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Content").fill("Later.");
  await page.getByRole("switch", { name: "Schedule" }).click();
  await page.getByLabel("Publish at").fill("2099-06-01T09:30:00");
  await page.getByRole("button", { name: "Create Post" }).click();
  await expect(page).toHaveURL(new RegExp(`/7fs/Friends/${slugOf(title)}$`));
  await expect(toastWith(page, "Post scheduled for Jun 1, 2099, 9:30 AM (UTC)")).toBeVisible();
  await expect(page.getByText("Scheduled for Jun 1, 2099, 9:30 AM (UTC)", { exact: true })).toBeVisible();
});

test("Blog Management: search and category in the address, bulk move behind a confirmation, a row's Delete; by keyboard, axe clean", async ({
  page,
}) => {
  test.slow();
  const tag = `Bulk${Date.now()}${test.info().project.name.replace(/\W/g, "")}`;
  for (const [n, category] of [
    [1, "Fun"],
    [2, "Fun"],
    [3, "Faith"],
  ] as const) {
    const created = await page.request.post(`/7fs/${category}/new`, {
      form: { title: `${tag} post ${n}`, content: "Words.", published: "on" },
    });
    expect(created.ok()).toBe(true);
  }
  await gotoHydrated(page, "/admin/blog");
  await page.getByLabel("Search by title").fill(tag);
  await page.getByLabel("Category", { exact: true }).selectOption("Fun");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`\\?q=${tag}&category=Fun&sort=updated$`));
  const titles = page.getByRole("heading", { level: 2, name: new RegExp(tag) });
  await expect(titles).toHaveText([`${tag} post 2`, `${tag} post 1`]);
  await expectNoSeriousAxeViolations(page, { exclude: ["[data-sonner-toaster]"] });

  // Select both by keyboard, choose the action, confirm in the dialog.
  await page.getByRole("checkbox", { name: `Select ${tag} post 1` }).focus();
  await page.keyboard.press("Space");
  await page.keyboard.press("Shift+Tab");
  await page.getByRole("checkbox", { name: `Select ${tag} post 2` }).press("Space");
  await page.getByLabel("With selected").selectOption("move");
  await page.getByLabel("Move to").selectOption("Friends");
  await page.getByRole("button", { name: "Apply to 2 selected" }).press("Enter");
  const dialog = page.getByRole("alertdialog", { name: "Move 2 selected posts to Friends?" });
  await expect(dialog).toBeVisible();
  await expectNoSeriousAxeViolations(page, { exclude: ["[data-sonner-toaster]"] });
  await dialog.getByRole("button", { name: "Move to category" }).click();
  await expect(toastWith(page, "2 posts moved")).toBeVisible();
  await expect(titles).toHaveCount(0);

  await gotoHydrated(page, `/admin/blog?q=${tag}&category=Friends`);
  await expect(titles).toHaveCount(2);
  await expect(titles.filter({ hasText: `${tag} post 1` })).toHaveCount(1);
  expect((await page.request.get(`/7fs/Friends/${slugOf(`${tag} post 1`)}`)).status()).toBe(200);

  // A row's Delete asks first; Cancel keeps the post.
  await page.getByRole("button", { name: `Delete ${tag} post 1` }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete this post?" });
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(titles).toHaveCount(2);
  await page.getByRole("button", { name: `Delete ${tag} post 1` }).click();
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(toastWith(page, "1 post deleted")).toBeVisible();
  await expect(titles).toHaveText([`${tag} post 2`]);
  expect((await page.request.get(`/7fs/Friends/${slugOf(`${tag} post 1`)}`)).status()).toBe(404);
});

test("Media names the post using an upload, its alt text edited once changes the post page, and it is not deleted while used; an unused one is deleted after a confirmation", async ({
  page,
}) => {
  test.slow();
  const tag = `media${Date.now()}${test.info().project.name.replace(/\W/g, "")}`;
  const uploaded = await page.request.post("/api/uploads", {
    multipart: { files: { name: `${tag}-used.png`, mimeType: "image/png", buffer: await png() } },
  });
  expect(uploaded.status()).toBe(201);
  const spare = await page.request.post("/api/uploads", {
    multipart: { files: { name: `${tag}-spare.png`, mimeType: "image/png", buffer: await png(32, 24) } },
  });
  expect(spare.status()).toBe(201);
  const { images } = (await uploaded.json()) as { images: { url: string }[] };
  const url = images[0]?.url ?? "";
  const title = `${tag} post`;
  const created = await page.request.post("/7fs/Fun/new", {
    form: {
      title,
      content: `An image: ![A test image](${url})`,
      featuredImageUrl: url,
      featuredImageAlt: "An old cover description",
      published: "on",
    },
  });
  expect(created.ok()).toBe(true);
  const postPage = `/7fs/Fun/${slugOf(title)}`;

  await gotoHydrated(page, "/admin/media");
  await page.getByLabel("Search by name or alt text").fill(tag);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  const cards = page
    .getByRole("list", { name: "Uploads" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading") });
  await expect(cards).toHaveCount(2);
  const used = cards.filter({ hasText: `${tag}-used.png` });
  await expect(used.getByText("In use")).toBeVisible();
  await expect(used.getByText("64 × 48")).toBeVisible();
  // Where it is used: the post, linked to its editor.
  await expect(
    used.getByRole("list", { name: `Where ${tag}-used.png is used` }).getByRole("link", { name: `Post “${title}”` }),
  ).toHaveAttribute("href", `${postPage}/edit`);
  await expect(cards.filter({ hasText: `${tag}-spare.png` }).getByText("Unused")).toBeVisible();
  await expect(cards.filter({ hasText: `${tag}-spare.png` }).getByText("Not used anywhere")).toBeVisible();
  await expectNoSeriousAxeViolations(page, { exclude: ["[data-sonner-toaster]"] });

  // The alt text, edited once in the library, is the post page's alt for the body image and the cover.
  await used.getByLabel("Alt text", { exact: true }).fill("A small orange test square");
  await used.getByRole("button", { name: `Save alt text of ${tag}-used.png` }).click();
  await expect(toastWith(page, "Alt text saved.")).toBeVisible();
  await page.goto(postPage);
  const article = page.getByRole("article");
  await expect(article.getByRole("img", { name: "A small orange test square" })).toHaveCount(2);
  await expect(article.getByRole("img", { name: "A test image" })).toHaveCount(0);
  await expect(article.getByRole("img", { name: "An old cover description" })).toHaveCount(0);

  await gotoHydrated(page, `/admin/media?q=${tag}`);
  await used.getByRole("button", { name: `Delete ${tag}-used.png` }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete this upload?" });
  await expect(confirm).toContainText(`is still used by Post “${title}”`);
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(
    toastWith(page, "Error", "This file is still used by a post, page or setting. Remove it there first, then delete it."),
  ).toBeVisible();
  await expect(cards).toHaveCount(2);
  expect((await page.request.get(url)).status()).toBe(200);

  await page.getByRole("button", { name: `Delete ${tag}-spare.png` }).press("Enter");
  await page.getByRole("alertdialog", { name: "Delete this upload?" }).getByRole("button", { name: "Delete" }).press("Enter");
  await expect(toastWith(page, "Upload deleted.")).toBeVisible();
  await expect(cards).toHaveCount(1);
});

test("Pick from library inserts an upload's Markdown with its alt text at the cursor and can make it the featured image", async ({
  page,
}) => {
  const tag = `picker${Date.now()}${test.info().project.name.replace(/\W/g, "")}`;
  const uploaded = await page.request.post("/api/uploads", {
    multipart: { files: { name: `${tag}.png`, mimeType: "image/png", buffer: await png() }, alt: "A blue test square" },
  });
  expect(uploaded.status()).toBe(201);
  const { images } = (await uploaded.json()) as { images: { url: string }[] };
  const url = images[0]?.url ?? "";

  await gotoHydrated(page, "/7fs/Fun/new");
  const content = page.getByLabel("Content", { exact: true });
  await content.fill("Before.\n\nAfter.");
  // The cursor after "Before.": the image goes there, on its own line.
  await content.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(7, 7));
  await page.getByRole("button", { name: "Pick from library" }).click();
  const dialog = page.getByRole("dialog", { name: "Pick from library" });
  await dialog.getByLabel("Search by name or alt text").fill(tag);
  await dialog.getByLabel("Search by name or alt text").press("Enter");
  const choice = dialog.getByRole("radio", { name: `${tag}.png` });
  await expect(choice).toHaveCount(1);
  await expectNoSeriousAxeViolations(page, { exclude: ["[data-sonner-toaster]"] });
  // Keyboard: the image is a radio button; choosing it fills in the alt text kept with the upload.
  await choice.focus();
  await page.keyboard.press("Space");
  await expect(dialog.getByLabel("Alt text", { exact: true })).toHaveValue("A blue test square");
  await dialog.getByRole("button", { name: "Insert image" }).click();
  await expect(dialog).toBeHidden();
  await expect(content).toHaveValue(`Before.\n![A blue test square](${url})\n\nAfter.`);

  // The featured image group picks from the library too; Esc closes without a change.
  const featured = page.getByRole("group", { name: "Featured image" });
  await featured.getByRole("button", { name: "Choose from library" }).click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(featured.getByLabel("Featured Image URL (optional)")).toHaveValue("");
  await featured.getByRole("button", { name: "Choose from library" }).click();
  await dialog.getByLabel("Search by name or alt text").fill(tag);
  await dialog.getByRole("button", { name: "Search", exact: true }).click();
  await dialog.getByRole("radio", { name: `${tag}.png` }).focus();
  await page.keyboard.press("Space");
  await dialog.getByRole("button", { name: "Set as featured image" }).click();
  await expect(featured.getByLabel("Featured Image URL (optional)")).toHaveValue(url);
});
