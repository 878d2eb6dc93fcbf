import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CATEGORIES, categoryPath } from "~/lib/categories";
import { startServerProcess, type ServerProcess } from "../helpers/server-process";
import { expect, test, type Page } from "./helpers/test";
import { SAME_ON_PHONES } from "./constants";
import { expectNoSeriousAxeViolations } from "./helpers/ui";

/**
 * A new site started with SEED_DEMO_CONTENT=false (its own production server on an empty
 * database) shows a tidy empty state on every public page: no example links, no empty lists or
 * frames, no broken image, and a line saying what will appear.
 */
test.describe.configure({ mode: "serial", timeout: 120_000 });

let server: ServerProcess;
let dataDir = "";

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-empty-site-"));
  server = await startServerProcess({ DATA_DIR: dataDir, SEED_DEMO_CONTENT: "false", INITIAL_ADMIN_EMAIL: "owner@empty.test" });
});

test.afterAll(async () => {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Opens a page of the empty site and checks what every page must hold. */
async function openTidy(page: Page, address: string): Promise<void> {
  const response = await page.goto(`${server.url}${address}`);
  expect(response?.status(), address).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // No demo addresses and no embedded widget without an address.
  await expect(page.locator('a[href*="example.com"], a[href*="example.org"]')).toHaveCount(0);
  await expect(page.locator("main iframe")).toHaveCount(0);
  // No list drawn without entries.
  const emptyLists = await page
    .locator("main ul, main ol")
    .evaluateAll((lists) => lists.filter((list) => list.children.length === 0).length);
  expect(emptyLists, `${address}: empty lists`).toBe(0);
  // Every image (the portrait placeholder too) loads.
  for (const image of await page.locator("main img").all()) {
    await image.scrollIntoViewIfNeeded();
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { message: address })
      .toBe(true);
  }
  await expectNoSeriousAxeViolations(page);
}

test("the home page says there is nothing to feature yet, with the neutral name and no demo links", async ({ page }) => {
  await openTidy(page, "/");
  await expect(page.getByText("Nothing to feature yet. New articles and projects will appear here.")).toBeVisible();
  await expect(page.getByRole("banner").getByRole("link", { name: "Portfolio" })).toBeVisible();
  await expect(page.getByRole("contentinfo")).toContainText("Portfolio. All rights reserved.");
  // The Reach Me section links to the contact page instead of an empty scheduling frame.
  await expect(page.getByRole("main").getByRole("link", { name: "Book a call", exact: true })).toHaveAttribute("href", "/contact");
});

/** Each page with a list, and the line it shows instead. */
const EMPTY_PAGES: [address: string, text: string][] = [
  ["/projects", "No web projects to show yet."],
  ["/testimonials", "No testimonials yet."],
  ...CATEGORIES.map((category): [string, string] => [categoryPath(category), "No posts yet"]),
  ["/search", "Type a few words to search the posts"],
  ["/search?q=anything", 'No results for "anything"'],
];

for (const [address, text] of EMPTY_PAGES) {
  test(`${address} says it is empty`, { tag: SAME_ON_PHONES }, async ({ page }) => {
    await openTidy(page, address);
    await expect(page.getByRole("main").getByText(text, { exact: true })).toBeVisible();
  });
}

for (const address of ["/about", "/recent-roles", "/contact"]) {
  test(`${address} shows no demo address`, { tag: SAME_ON_PHONES }, async ({ page }) => {
    await openTidy(page, address);
    // No contact address was set: none is shown.
    await expect(page.locator('main a[href^="mailto:"]')).toHaveCount(0);
  });
}

test("the feed is valid and empty", { tag: SAME_ON_PHONES }, async () => {
  const response = await server.fetch("/rss.xml");
  expect(response.status).toBe(200);
  const rss = await response.text();
  expect(rss).toContain("<title>7 Fs Framework — Portfolio</title>");
  expect(rss).not.toContain("<item>");
  expect(rss).not.toMatch(/example\.(com|org)/);
});
