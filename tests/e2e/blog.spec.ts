import { expect, test, type Page } from "./helpers/test";
import sharp from "sharp";
import { E2E_ADMIN, E2E_MODERATOR, E2E_USER, SAME_ON_PHONES } from "./constants";
import { loginAs } from "./helpers/auth";
import { expectNoSeriousAxeViolations, gotoHydrated } from "./helpers/ui";

// Toasts are the root layout's (sonner richColors success text is 4.25:1 — reported to the lead).
const expectAccessible = (page: Page) => expectNoSeriousAxeViolations(page, { exclude: ["[data-sonner-toaster]"] });

async function image(width: number, height: number, color: { r: number; g: number; b: number }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .jpeg()
    .toBuffer();
}

test("staff create a post with two uploaded images and a YouTube item, publish, edit and delete it", async ({ page, request }) => {
  // Sign-in proof of work, two image uploads (sharp variants) and three saves: slow on a loaded 2-core machine.
  test.slow();
  const title = `E2E Fitness Journal ${Date.now()}`;
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  await loginAs(page, E2E_MODERATOR);

  await page.goto("/7fs/Fitness");
  await page.getByRole("link", { name: "Create New Post" }).click();
  await expect(page).toHaveURL(/\/7fs\/Fitness\/new$/);
  await expect(page.getByRole("heading", { name: "Create New Post - Fitness" })).toBeVisible();
  await expect(page.getByLabel("Featured Image URL (optional)")).toHaveAttribute("placeholder", "Or upload an image below");
  await expect(page.getByLabel("Excerpt (optional)")).toHaveAttribute("rows", "2");
  await expect(page.getByLabel("Content")).toHaveAttribute("rows", "12");
  await expectAccessible(page);

  // The shared schema refuses an empty form before anything is sent.
  await page.getByRole("button", { name: "Create Post" }).click();
  await expect(page.getByText("Title is required").first()).toBeVisible();
  await expect(page.getByLabel("Title")).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#post-form-content-error")).toHaveText("Content is required");

  // An error clears as soon as its field is valid, with no new submit; the others stay.
  await page.getByLabel("Title").fill(title);
  await expect(page.getByLabel("Title")).not.toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#post-form-title-error")).toHaveCount(0);
  await expect(page.locator("#post-form-content-error")).toHaveText("Content is required");
  await page.getByLabel("Excerpt (optional)").fill("Two photos and a video.");
  await page.getByLabel("Content").fill("Line one\n\n  indented line two\nRead more at https://example.com/run");
  await page.getByLabel("Upload Images").setInputFiles([
    { name: "first.jpg", mimeType: "image/jpeg", buffer: await image(900, 600, { r: 200, g: 30, b: 30 }) },
    { name: "second.jpg", mimeType: "image/jpeg", buffer: await image(400, 300, { r: 30, g: 30, b: 200 }) },
  ]);
  await expect(page.getByText("2 image(s) uploaded successfully")).toBeVisible();
  const uploaded = page.getByRole("list", { name: "Uploaded images" }).getByRole("listitem");
  await expect(uploaded).toHaveCount(2);
  // Clicking the second image makes it the featured image; only the first joins the gallery.
  await page.getByRole("button", { name: "Make image 2 the featured image" }).click();
  await expect(page.getByLabel("Featured Image URL (optional)")).toHaveValue(/^\/uploads\/blog-images\/.+\.jpg$/);
  // One alt text field per image: the featured image's is in the 'Featured image' group only.
  await expect(page.getByRole("group", { name: "Image 2" }).getByLabel("Alt text")).toHaveCount(0);
  await page.getByRole("group", { name: "Featured image" }).getByLabel("Alt text").fill("A blue rectangle");
  const first = page.getByRole("group", { name: "Image 1" });
  await first.getByLabel("Alt text").fill("A red rectangle");
  await first.getByRole("button", { name: "Add to gallery" }).click();
  await expect(first.getByRole("button", { name: "In gallery" })).toHaveAttribute("aria-pressed", "true");

  await page.getByLabel("Video URL (YouTube, Vimeo or video file)").fill("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
  await page.getByLabel("Caption (optional)").fill("A video caption");
  await page.getByRole("button", { name: "Add media" }).click();
  await expect(page.getByRole("list", { name: "Media items in display order" }).getByRole("listitem")).toHaveCount(2);
  // Move the video to the top.
  await page.getByRole("button", { name: "Move media item 2 up" }).click();

  await page.getByRole("switch", { name: "Publish immediately" }).click();
  await page.getByRole("button", { name: "Create Post" }).click();
  await expect(page).toHaveURL(new RegExp(`/7fs/Fitness/${slug}$`));
  await expect(page.getByText("Post created successfully!")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page.getByText("1 min read")).toBeVisible();
  // Content is Markdown now: the indent is not kept, the line is.
  await expect(page.getByTestId("post-content")).toContainText("indented line two");
  await expect(page.getByRole("link", { name: "https://example.com/run" })).toHaveAttribute("rel", "noopener noreferrer nofollow");
  const figures = page.getByTestId("post-media").locator("figure");
  // The featured image is above the post, not repeated in the gallery.
  await expect(page.getByRole("img", { name: "A blue rectangle" })).toHaveCount(1);
  await expect(figures).toHaveCount(2);
  await expect(figures.nth(0)).toHaveAttribute("data-media-type", "youtube");
  await expect(figures.nth(0).locator("iframe")).toHaveAttribute("src", "https://www.youtube.com/embed/dQw4w9WgXcQ");
  await expect(figures.nth(0)).toContainText("A video caption");
  await expect(figures.locator("img")).toHaveCount(1);
  await expect(figures.locator("img")).toHaveAttribute("alt", "A red rectangle");
  await expectAccessible(page);

  await page.goto("/7fs/Fitness");
  await expect(page.getByRole("link", { name: new RegExp(title) })).toBeVisible();
  await expectAccessible(page);
  const rss = await (await request.get("/rss.xml")).text();
  expect(rss).toContain(`<title>${title}</title>`);
  expect(await (await request.get("/7fs/Fitness/rss.xml")).text()).toContain(`/7fs/Fitness/${slug}</link>`);
  // Home 'Featured Work' belongs to another issue and is not on this branch yet.

  await page.goto(`/7fs/Fitness/${slug}`);
  await page.getByRole("link", { name: "Edit" }).click();
  await expect(page.getByRole("heading", { name: "Edit Post - Fitness" })).toBeVisible();
  await expect(page.getByLabel("Title")).toHaveValue(title);
  await page.getByLabel("Title").fill(`${title} (revised)`);
  await page.getByRole("button", { name: "Update Post" }).click();
  await expect(page).toHaveURL(new RegExp(`/7fs/Fitness/${slug}$`));
  await expect(page.getByText("Post updated successfully!")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: `${title} (revised)` })).toBeVisible();

  await page.getByRole("button", { name: "Delete" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toBeVisible();
  await page.mouse.click(5, 5);
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(page).toHaveURL(/\/7fs\/Fitness$/);
  await expect(page.getByText("Post deleted successfully")).toBeVisible();
  expect((await request.get(`/7fs/Fitness/${slug}`)).status()).toBe(404);
});

test("leaving the form with unsaved changes asks first", async ({ page }) => {
  await loginAs(page, E2E_ADMIN);
  await gotoHydrated(page, "/7fs/Fun/new");
  await page.getByLabel("Title").fill("Unsaved thoughts");
  // In-app navigation: an accessible dialog; 'Stay' keeps the editor and its text.
  await page.getByRole("link", { name: "Cancel" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Leave without saving?" });
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Stay" }).click();
  await expect(confirm).toBeHidden();
  await expect(page).toHaveURL(/\/7fs\/Fun\/new$/);
  await expect(page.getByLabel("Title")).toHaveValue("Unsaved thoughts");
  // Closing the tab: the browser's own beforeunload prompt.
  let asked = "";
  page.once("dialog", (d) => {
    asked = d.type();
    void d.dismiss();
  });
  await page.close({ runBeforeUnload: true });
  await expect.poll(() => asked).toBe("beforeunload");
});

test("visitors and plain users cannot reach the editor", { tag: SAME_ON_PHONES }, async ({ page }) => {
  await gotoHydrated(page, "/7fs/Faith/new");
  await expect(page).toHaveURL(/\/auth\?redirectTo=/);
  await loginAs(page, E2E_USER);
  const response = await page.goto("/7fs/Faith/new");
  expect(response?.status()).toBe(403);
  await page.goto("/7fs/Faith");
  await expect(page.getByRole("link", { name: "Create New Post" })).toHaveCount(0);
});

test("blog management lists posts with filters and links", async ({ page }) => {
  await loginAs(page, E2E_ADMIN);
  await page.goto("/admin/blog");
  await expect(page.getByRole("link", { name: /^All \(\d+\)$/ })).toBeVisible();
  await expect(page.getByRole("link", { name: /^Published \(\d+\)$/ })).toBeVisible();
  await page.getByRole("link", { name: /^Drafts \(\d+\)$/ }).click();
  await expect(page).toHaveURL(/filter=drafts/);
  await expect(page.getByText("Draft", { exact: true }).first()).toBeVisible();
  await page.getByRole("main").getByRole("button", { name: "New post" }).click();
  await expect(page.getByRole("menuitem", { name: "Faith" })).toHaveAttribute("href", "/7fs/Faith/new");
  await page.keyboard.press("Escape");
  await expect(page.getByText(/Updated .+ ago/).first()).toBeVisible();
  await expectAccessible(page);
});
