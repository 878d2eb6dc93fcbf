import sharp from "sharp";
import { E2E_ADMIN } from "./constants";
import { loginAs } from "./helpers/auth";
import { expect, test, type Page } from "./helpers/test";
import { expectNoSeriousAxeViolations, toastWith } from "./helpers/ui";

const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");

async function pngFile(name: string, width: number, height: number, background: string) {
  const buffer = await sharp({ create: { width, height, channels: 4, background } })
    .png()
    .toBuffer();
  return { name, mimeType: "image/png", buffer };
}

/** Chooses a file with the upload button labelled `label` and waits for the upload's toast. */
async function upload(page: Page, label: string, file: { name: string; mimeType: string; buffer: Buffer }, toast: string) {
  await page.getByLabel(label, { exact: true }).setInputFiles(file);
  await expect(toastWith(page, toast).last()).toBeVisible();
}

/** The logo mark, favicon and resume uploaded in /admin/settings, and a project's image, on the public site. */
test("settings: an uploaded logo mark, favicon and resume show on the public site", async ({ page, request }) => {
  await loginAs(page, E2E_ADMIN);
  await page.goto("/admin/settings");
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
  await upload(page, "Upload logo mark", await pngFile("logo.png", 240, 80, "#1d4fa8"), "Image uploaded");
  await upload(page, "Upload favicon", await pngFile("favicon.png", 512, 512, "#c2410c"), "Image uploaded");
  await expect(page.getByLabel("Logo mark", { exact: true })).toHaveValue(/^\/uploads\/blog-images\/.+\.png$/);
  // A file that is not a PDF is refused with the server's message.
  await page
    .getByLabel("Upload resume (PDF)")
    .setInputFiles({ name: "notes.pdf", mimeType: "application/pdf", buffer: Buffer.from("hello") });
  await expect(toastWith(page, "Upload failed", "notes.pdf is not a PDF file.")).toBeVisible();
  await upload(page, "Upload resume (PDF)", { name: "cv.pdf", mimeType: "application/pdf", buffer: PDF }, "File uploaded");
  const resumeUrl = await page.getByLabel("Resume link").inputValue();
  expect(resumeUrl).toMatch(/^\/uploads\/documents\/.+\.pdf$/);
  await page.getByLabel("Owner's name").fill("Jo Doe");
  await expectNoSeriousAxeViolations(page);
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(toastWith(page, "Settings saved")).toBeVisible();

  await page.goto("/about");
  const mark = page.getByRole("banner").getByTestId("logo-mark");
  await expect(mark).toBeVisible();
  expect(await mark.evaluate((img: HTMLImageElement) => img.naturalHeight)).toBe(64);
  const icon = await page.locator('link[rel="icon"][sizes="32x32"]').getAttribute("href");
  expect(icon).toMatch(/-icon-32\.png$/);
  const apple = await page.locator('link[rel="apple-touch-icon"]').getAttribute("href");
  expect(apple).toMatch(/-icon-180\.png$/);
  const iconResponse = await request.get(icon ?? "");
  expect(iconResponse.headers()["content-type"]).toBe("image/png");
  expect((await request.get("/favicon.ico")).headers()["content-type"]).toBe("image/x-icon");

  const resumeLink = page.getByRole("main").locator(`a[href="${resumeUrl}"]`);
  await expect(resumeLink).toBeVisible();
  const download = page.waitForEvent("download");
  await resumeLink.click();
  expect((await download).suggestedFilename()).toBe("Jo Doe Resume.pdf");

  // Back to the defaults, so other specs see the site as it was.
  await page.goto("/admin/settings");
  for (const label of ["Logo mark", "Favicon"]) await page.getByLabel(label, { exact: true }).fill("");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(toastWith(page, "Settings saved")).toBeVisible();
  await page.goto("/about");
  await expect(page.getByRole("banner").getByTestId("logo-mark")).toHaveCount(0);
  await expect(page.locator('link[rel="icon"][type="image/svg+xml"]')).toHaveAttribute("href", "/favicon.svg");
});

test("projects: an uploaded image and the Featured switch show on /projects", async ({ page }) => {
  const title = `Uploaded ${Date.now().toString(36)} ${test.info().project.name}`;
  await loginAs(page, E2E_ADMIN);
  await page.goto("/admin/projects");
  await page.getByRole("link", { name: "Add Project" }).click();
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Description").fill("A project with an uploaded screenshot.");
  await upload(page, "Upload image", await pngFile("screenshot.png", 800, 450, "#15803d"), "Image uploaded");
  const imageUrl = await page.getByLabel("Image URL (optional)").inputValue();
  expect(imageUrl).toMatch(/^\/uploads\/blog-images\/.+\.png$/);
  const featured = page.getByRole("switch", { name: "Featured" });
  await expect(featured).not.toBeChecked();
  await featured.check();
  await expectNoSeriousAxeViolations(page);
  await page.getByRole("button", { name: "Create Project" }).click();
  await expect(toastWith(page, "Project created")).toBeVisible();

  await page.goto("/projects");
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title }) });
  await expect(card.getByRole("img", { name: `Screenshot of ${title}` })).toHaveAttribute("src", imageUrl);
  expect(await card.getByRole("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(card.getByText("Featured", { exact: true })).toBeVisible();
  // Featured projects lead the list: no featured card after one that is not.
  const cards = page.getByRole("heading", { name: "Web Development Projects" }).locator("xpath=following-sibling::ul[1]/li");
  const flags = await cards.evaluateAll((items) => items.map((li) => li.querySelector('[data-slot="badge"]') !== null));
  expect(flags.slice(flags.indexOf(false) === -1 ? flags.length : flags.indexOf(false))).not.toContain(true);
  await expectNoSeriousAxeViolations(page);

  // Not featured any more: the badge goes.
  await page.goto("/admin/projects");
  await page.getByRole("link", { name: `Edit ${title}` }).click();
  await page.getByRole("switch", { name: "Featured" }).uncheck();
  await page.getByRole("button", { name: "Update Project" }).click();
  await expect(toastWith(page, "Project updated")).toBeVisible();
  await page.goto("/projects");
  await expect(card.getByText("Featured", { exact: true })).toHaveCount(0);
});

test("settings: an uploaded portrait shows on the home page and Recent Roles", async ({ page }) => {
  await loginAs(page, E2E_ADMIN);
  await page.goto("/admin/settings");
  const field = page.getByLabel("Portrait", { exact: true });
  const before = await field.inputValue();
  await upload(page, "Upload portrait", await pngFile("me.png", 600, 750, "#0f766e"), "Image uploaded");
  const url = await field.inputValue();
  expect(url).toMatch(/^\/uploads\/blog-images\/.+\.png$/);
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(toastWith(page, "Settings saved")).toBeVisible();

  for (const path of ["/", "/recent-roles"]) {
    await page.goto(path);
    const portrait = page.getByRole("main").locator(`img[src="${url}"]`);
    await expect(portrait).toBeVisible();
    expect(await portrait.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  }

  // Back to the portrait other specs expect.
  await page.goto("/admin/settings");
  await page.getByLabel("Portrait", { exact: true }).fill(before);
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(toastWith(page, "Settings saved")).toBeVisible();
});
