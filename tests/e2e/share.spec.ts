import sharp from "sharp";
import { E2E_MODERATOR } from "./constants";
import { loginAs } from "./helpers/auth";
import { expect, test, type Page, type TestInfo } from "./helpers/test";
import { expectNoSeriousAxeViolations } from "./helpers/ui";

const CONTENT = [
  "Why a table of contents helps long posts.",
  "# Why it matters",
  "Some text.\n".repeat(30),
  "## The details",
  "More text.\n".repeat(30),
  "# What comes next",
  "The end.\n".repeat(30),
].join("\n\n");

/** Publishes a post with three headings and no featured image (as staff), then signs out; its address. */
async function publishPostWithSections(page: Page, testInfo: TestInfo): Promise<string> {
  await loginAs(page, E2E_MODERATOR);
  const title = `Sections ${testInfo.project.name} ${Date.now()}`;
  const created = await page.request.post("/7fs/Fun/new", { form: { title, content: CONTENT, published: "on" }, maxRedirects: 0 });
  expect(created.status()).toBe(302);
  await page.context().clearCookies();
  return created.headers().location ?? "";
}

async function expectShareImage(page: Page): Promise<void> {
  const url = await page.locator('meta[property="og:image"]').getAttribute("content");
  expect(url).toMatch(/\/share-images\/.+\.png$/);
  await expect(page.locator('meta[name="twitter:image"]')).toHaveAttribute("content", url ?? "");
  await expect(page.locator('meta[property="og:image:type"]')).toHaveAttribute("content", "image/png");
  await expect(page.locator('meta[property="og:image:width"]')).toHaveAttribute("content", "1200");
  await expect(page.locator('meta[property="og:image:height"]')).toHaveAttribute("content", "630");
  // The tag is absolute (the public URL): the test server answers the same path.
  const response = await page.request.get(new URL(url ?? "").pathname);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("image/png");
  expect(response.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  const meta = await sharp(await response.body()).metadata();
  expect([meta.format, meta.width, meta.height]).toEqual(["png", 1200, 630]);
}

test("a post with three headings has a table of contents whose links jump to them; it passes axe", async ({ page }, testInfo) => {
  const path = await publishPostWithSections(page, testInfo);
  await page.goto(path);
  const toc = page.getByRole("navigation", { name: "Table of contents" });
  await expect(toc.getByRole("link")).toHaveText(["Why it matters", "The details", "What comes next"]);
  await expectNoSeriousAxeViolations(page);
  const last = page.getByRole("heading", { name: "What comes next" });
  await expect(last).not.toBeInViewport();
  await toc.getByRole("link", { name: "What comes next" }).click();
  await expect(page).toHaveURL(/#what-comes-next$/);
  await expect(last).toBeInViewport();
  await toc.getByRole("link", { name: "The details" }).click();
  await expect(page).toHaveURL(/#the-details$/);
  await expect(page.getByRole("heading", { name: "The details" })).toBeInViewport();
});

test("a post without a featured image and a category page share a generated 1200×630 PNG", async ({ page }, testInfo) => {
  const path = await publishPostWithSections(page, testInfo);
  await page.goto(path);
  await expectShareImage(page);
  await page.goto("/7fs/Fun");
  await expectShareImage(page);
});
