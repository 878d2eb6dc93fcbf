import { expect, test, type Page } from "./helpers/test";
import sharp from "sharp";
import { XSS_PAYLOADS } from "../../app/features/posts/content/markdown-xss.fixtures";
import { E2E_MODERATOR } from "./constants";
import { loginAs } from "./helpers/auth";
import { gotoHydrated } from "./helpers/ui";

async function png(): Promise<number[]> {
  return [
    ...(await sharp({ create: { width: 120, height: 80, channels: 3, background: { r: 10, g: 120, b: 60 } } })
      .png()
      .toBuffer()),
  ];
}

/** Puts the cursor (or a selection) in Content. */
async function select(page: Page, start: number, end = start) {
  await page.getByLabel("Content").evaluate(
    (el, [s, e]) => {
      if (!(el instanceof HTMLTextAreaElement)) throw new Error("Content is not a textarea");
      el.focus();
      el.setSelectionRange(s ?? 0, e ?? 0);
    },
    [start, end],
  );
}

test.beforeEach(async ({ page }) => {
  await loginAs(page, E2E_MODERATOR);
});

test("toolbar buttons and shortcuts insert Markdown at the cursor or around the selection", async ({ page }) => {
  await gotoHydrated(page, "/7fs/Fun/new");
  await expect(page.getByRole("switch", { name: "Feature on home page" })).not.toBeChecked();
  const content = page.getByLabel("Content");
  // 12 rows tall before anything is typed (it used to be about two lines).
  const lineHeight = await content.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
  expect((await content.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(lineHeight * 12);

  const toolbar = page.getByRole("toolbar", { name: "Formatting" });
  for (const name of ["Bold", "Italic", "Heading", "Link", "Bulleted list", "Numbered list", "Quote", "Code", "Insert image"]) {
    await expect(toolbar.getByRole("button", { name, exact: true })).toBeVisible();
  }

  await content.fill("make this strong");
  await select(page, 10, 16);
  await toolbar.getByRole("button", { name: "Bold", exact: true }).click();
  await expect(content).toHaveValue("make this **strong**");
  await page.keyboard.type("STRONG");
  await expect(content).toHaveValue("make this **STRONG**");

  await content.fill("a word");
  await select(page, 2, 6);
  await page.keyboard.press("ControlOrMeta+i");
  await expect(content).toHaveValue("a _word_");
  await content.fill("see docs");
  await select(page, 4, 8);
  await page.keyboard.press("ControlOrMeta+k");
  await expect(content).toHaveValue("see [docs](https://)");
  await page.keyboard.type("https://example.com");
  await expect(content).toHaveValue("see [docs](https://example.com)");
  await content.fill("x");
  await select(page, 1);
  await page.keyboard.press("ControlOrMeta+b");
  await expect(content).toHaveValue("x**bold text**");

  await content.fill("one\ntwo");
  await select(page, 0, 7);
  await toolbar.getByRole("button", { name: "Numbered list" }).click();
  await expect(content).toHaveValue("1. one\n2. two");
  await select(page, 0);
  await toolbar.getByRole("button", { name: "Heading" }).click();
  await expect(content).toHaveValue("## 1. one\n2. two");
});

test("Preview shows the server's rendering of the text; Write keeps it", async ({ page }) => {
  await gotoHydrated(page, "/7fs/Fun/new");
  await page.getByLabel("Content").fill("## Why bother\n\nA **crisis** averted.\n\n```ts\nconst x = 1;\n```");
  await page.getByRole("tab", { name: "Preview" }).click();
  const panel = page.getByRole("tabpanel", { name: "Preview" });
  await expect(panel.getByRole("heading", { name: "Why bother" })).toBeVisible();
  await expect(panel.locator("strong")).toHaveText("crisis");
  await expect(panel.locator("pre.shiki")).toBeVisible();
  await expect(panel).not.toContainText("**");
  await page.getByRole("tab", { name: "Write" }).click();
  await expect(page.getByLabel("Content")).toHaveValue(/^## Why bother/);
});

test("pasting or dropping an image into Content uploads it and inserts it at the cursor", async ({ page }) => {
  await gotoHydrated(page, "/7fs/Fun/new");
  const content = page.getByLabel("Content");
  await content.fill("Before\nAfter");
  await select(page, 6);
  const bytes = await png();
  await content.evaluate((el, data) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(data)], "pasted.png", { type: "image/png" }));
    el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }));
  }, bytes);
  await expect(content).toHaveValue(/^Before\n!\[\]\(\/uploads\/blog-images\/[^)]+\.png\)\nAfter$/);

  await select(page, 0);
  await content.evaluate((el, data) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(data)], "dropped.png", { type: "image/png" }));
    el.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, bytes);
  await expect(content).toHaveValue(/^!\[\]\(\/uploads\/blog-images\/[^)]+\.png\)\nBefore\n!\[\]/);
  // Inline images are not gallery media items.
  await expect(page.getByRole("list", { name: "Uploaded images" })).toHaveCount(0);

  await page.getByRole("tab", { name: "Preview" }).click();
  await expect(page.getByRole("tabpanel", { name: "Preview" }).locator("img")).toHaveCount(2);
});

test("a post made of the XSS corpus publishes and runs no script", async ({ page }) => {
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  // Every payload calls one of these: a call sets the flag even if a dialog never shows.
  await page.addInitScript(() => {
    Reflect.set(window, "__xss", false);
    for (const name of ["alert", "confirm", "prompt", "print"]) {
      const original: unknown = Reflect.get(window, name);
      Reflect.set(window, name, (...args: unknown[]) => {
        Reflect.set(window, "__xss", true);
        return typeof original === "function" ? Reflect.apply(original, window, args) : undefined;
      });
    }
  });
  await gotoHydrated(page, "/7fs/Fun/new");
  const title = `XSS corpus ${Date.now()}`;
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Content").fill(XSS_PAYLOADS.map((p) => p.markdown).join("\n\n"));
  await page.getByRole("tab", { name: "Preview" }).click();
  await expect(page.getByRole("tabpanel", { name: "Preview" }).getByTestId("post-content")).toBeVisible();
  await page.getByRole("tab", { name: "Write" }).click();
  // Long unbroken lines scroll inside Content; they never widen the page (on a phone it zoomed out).
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.getByRole("switch", { name: "Publish immediately" }).click();
  await page.getByRole("button", { name: "Create Post" }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("post-content")).toBeVisible();
  // Give hostile markup every chance to fire: hover and click everything in the post.
  for (const element of await page.getByTestId("post-content").locator("a, img").all())
    await element.hover({ timeout: 2_000 }).catch(() => undefined);
  expect(dialogs).toEqual([]);
  expect(await page.evaluate(() => Reflect.get(window, "__xss"))).toBe(false);
  expect(await page.getByTestId("post-content").locator("script, iframe, object, embed, [onerror], [onload], [onclick]").count()).toBe(0);
});
