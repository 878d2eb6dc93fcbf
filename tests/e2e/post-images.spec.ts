import sharp from "sharp";
import { E2E_MODERATOR } from "./constants";
import { loginAs } from "./helpers/auth";
import { expect, test, type Page } from "./helpers/test";
import { expectNoSeriousAxeViolations, gotoHydrated } from "./helpers/ui";

const expectAccessible = (page: Page) => expectNoSeriousAxeViolations(page, { exclude: ["[data-sonner-toaster]"] });

async function png(color: { r: number; g: number; b: number }): Promise<Buffer> {
  return sharp({ create: { width: 320, height: 200, channels: 3, background: color } })
    .png()
    .toBuffer();
}

test("publishing needs alt text for every image; the post page uses it", async ({ page }) => {
  // Sign-in proof of work and image uploads: slow on a loaded 2-core machine.
  test.slow();
  const title = `Alt text ${Date.now()}`;
  await loginAs(page, E2E_MODERATOR);
  await gotoHydrated(page, "/7fs/Fun/new");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Content").fill("A post with pictures.");

  // 'Insert image' asks for the file and its alt text, and inserts both.
  await page.getByRole("toolbar", { name: "Formatting" }).getByRole("button", { name: "Insert image" }).click();
  const dialog = page.getByRole("dialog", { name: "Insert image" });
  await dialog
    .getByLabel("Image file")
    .setInputFiles({ name: "chart.png", mimeType: "image/png", buffer: await png({ r: 0, g: 90, b: 0 }) });
  await dialog.getByLabel("Alt text").fill("A green chart");
  await dialog.getByRole("button", { name: "Insert" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByLabel("Content")).toHaveValue(/!\[A green chart\]\(\/uploads\/blog-images\/[^)]+\.png\)/);

  await page.getByLabel("Upload Images").setInputFiles([
    { name: "cover.png", mimeType: "image/png", buffer: await png({ r: 180, g: 20, b: 20 }) },
    { name: "extra.png", mimeType: "image/png", buffer: await png({ r: 20, g: 20, b: 180 }) },
  ]);
  await expect(page.getByText("2 image(s) uploaded successfully")).toBeVisible();
  // Uploads are not gallery items until the author adds them.
  await expect(page.getByRole("list", { name: "Media items in display order" })).toHaveCount(0);
  // The post had no featured image: the first upload became it, with one alt text field (the featured image's).
  await expect(page.getByRole("button", { name: "Image 1 (featured image)" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("group", { name: "Image 1" }).getByLabel("Alt text")).toHaveCount(0);
  await expect(page.getByLabel("Alt text")).toHaveCount(2);
  // One upload control: the file input, named by its label.
  await expect(page.getByRole("button", { name: "Upload Images" })).toHaveCount(1);
  const extra = page.getByRole("group", { name: "Image 2" });
  await extra.getByRole("button", { name: "Add to gallery" }).click();
  await expectAccessible(page);

  // Publishing is refused, with the message beside the image that lacks alt text.
  await page.getByRole("switch", { name: "Publish immediately" }).click();
  await page.getByRole("button", { name: "Create Post" }).click();
  const featured = page.getByRole("group", { name: "Featured image" });
  await expect(featured.getByRole("alert")).toHaveText(/^Add alt text to the image ".+\.png" before publishing$/);
  await expect(featured.getByLabel("Alt text")).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/\/7fs\/Fun\/new$/);
  await expectAccessible(page);

  await featured.getByLabel("Alt text").fill("A red cover");
  await expect(featured.getByRole("alert")).toHaveCount(0);
  await page.getByRole("button", { name: "Create Post" }).click();
  await expect(extra.getByRole("alert")).toHaveText(/^Add alt text to the image ".+\.png" before publishing$/);
  await extra.getByLabel("Alt text").fill("A blue extra");
  await page.getByRole("button", { name: "Create Post" }).click();

  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole("img", { name: "A red cover" })).toHaveCount(1);
  await expect(page.getByTestId("post-content").getByRole("img", { name: "A green chart" })).toBeVisible();
  await expect(page.getByTestId("post-media").getByRole("img", { name: "A blue extra" })).toBeVisible();
  await expect(page.locator('meta[property="og:image:alt"]')).toHaveAttribute("content", "A red cover");
  await expectAccessible(page);
});
