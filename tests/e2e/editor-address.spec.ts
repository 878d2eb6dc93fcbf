import { E2E_MODERATOR } from "./constants";
import { loginAs } from "./helpers/auth";
import { expect, test } from "./helpers/test";
import { expectNoSeriousAxeViolations, toastWith, gotoHydrated } from "./helpers/ui";

const slugOf = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, "-");

test("edit mode changes a post's category and URL slug; the old address ends at the new one", async ({ page }, testInfo) => {
  const title = `E2E Address ${testInfo.project.name} ${Date.now()}`;
  const oldPath = `/7fs/Fun/${slugOf(title)}`;
  const newSlug = `moved-${slugOf(title)}`;
  await loginAs(page, E2E_MODERATOR);
  await gotoHydrated(page, "/7fs/Fun/new");
  // Creating keeps the spec's rule: the slug follows the title, so the address fields are not offered.
  await expect(page.getByLabel("URL slug")).toHaveCount(0);
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Content").fill("Where does this post live?");
  await page.getByRole("switch", { name: "Publish immediately" }).click();
  await page.getByRole("button", { name: "Create Post" }).click();
  await expect(page).toHaveURL(new RegExp(`${oldPath}$`));

  await gotoHydrated(page, `${oldPath}/edit`);
  const category = page.getByLabel("Category");
  await expect(category).toHaveValue("Fun");
  await expect(category.getByRole("option")).toHaveText(["Faith", "Finance", "Fitness", "Fun", "Friends", "Family", "Figurehead"]);
  const slug = page.getByLabel("URL slug");
  await expect(slug).toHaveValue(slugOf(title));

  await slug.fill("Not A Slug");
  await slug.blur();
  await expect(slug).toHaveAccessibleDescription(/^URL slug may only contain lowercase letters a-z, digits 0-9 and single hyphens/);
  await expectNoSeriousAxeViolations(page, { exclude: ["[data-sonner-toaster]"] });

  await category.selectOption("Family");
  await slug.fill(newSlug);
  await expect(page.getByText(`Address: /7fs/Family/${newSlug}`)).toBeVisible();
  await page.getByRole("button", { name: "Update Post" }).click();
  await expect(page).toHaveURL(new RegExp(`/7fs/Family/${newSlug}$`));
  await expect(toastWith(page, "Post updated successfully!")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();

  // The old address, typed in the browser, ends at the new one.
  await page.goto(oldPath);
  await expect(page).toHaveURL(new RegExp(`/7fs/Family/${newSlug}$`));
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
});

test("a URL slug another post uses is refused with a message, and the form keeps the typed values", async ({ page }, testInfo) => {
  const stamp = `${testInfo.project.name} ${Date.now()}`;
  await loginAs(page, E2E_MODERATOR);
  const titles = [`E2E Slug Owner ${stamp}`, `E2E Slug Taker ${stamp}`];
  for (const title of titles) {
    await gotoHydrated(page, "/7fs/Friends/new");
    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Content").fill("Two posts, one address.");
    await page.getByRole("button", { name: "Create Post" }).click();
    await expect(page).toHaveURL(new RegExp(`/7fs/Friends/${slugOf(title)}$`));
  }
  await gotoHydrated(page, `/7fs/Friends/${slugOf(titles[1] ?? "")}/edit`);
  await page.getByLabel("URL slug").fill(slugOf(titles[0] ?? ""));
  await page.getByRole("button", { name: "Update Post" }).click();
  await expect(page.getByText("That URL slug is already used by another post. Choose another one.").first()).toBeVisible();
  await expect(page).toHaveURL(/\/edit$/);
  await expect(page.getByLabel("URL slug")).toHaveValue(slugOf(titles[0] ?? ""));
});

test("autosave keeps every field of the form, and 'Restore unsaved changes' brings them all back", async ({ page }, testInfo) => {
  const title = `E2E Autosave all ${testInfo.project.name} ${Date.now()}`;
  await loginAs(page, E2E_MODERATOR);
  await gotoHydrated(page, "/7fs/Fitness/new");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Content").fill("Every field counts.");
  await page.getByRole("button", { name: "Create Post" }).click();
  await expect(page).toHaveURL(new RegExp(`/7fs/Fitness/${slugOf(title)}$`));
  await gotoHydrated(page, `/7fs/Fitness/${slugOf(title)}/edit`);

  const video = "https://www.youtube.com/watch?v=dQw4w9WgXcQ";
  const publishAt = "2031-05-01T08:00";
  await page.getByLabel("Category").selectOption("Faith");
  await page.getByLabel("URL slug").fill(`kept-${slugOf(title)}`);
  await page.getByRole("switch", { name: "Feature on home page" }).click();
  await page.getByLabel("Video URL (YouTube, Vimeo or video file)").fill(video);
  await page.getByRole("button", { name: "Add media" }).click();
  await expect(page.getByRole("list", { name: "Media items in display order" })).toContainText(video);
  await page.getByRole("switch", { name: "Schedule" }).click();
  await page.getByLabel("Publish at").fill(publishAt);
  await expect(page.getByTestId("autosave-status")).toHaveText("Saved");

  page.once("dialog", (d) => void d.accept());
  await page.reload();
  await expect(page.getByLabel("Category")).toHaveValue("Fitness");
  const offer = page.getByRole("region", { name: "Unsaved changes" });
  await offer.getByRole("button", { name: "Restore unsaved changes" }).click();
  await expect(offer).toBeHidden();
  await expect(page.getByLabel("Category")).toHaveValue("Faith");
  await expect(page.getByLabel("URL slug")).toHaveValue(`kept-${slugOf(title)}`);
  await expect(page.getByRole("switch", { name: "Feature on home page" })).toBeChecked();
  await expect(page.getByRole("list", { name: "Media items in display order" })).toContainText(video);
  await expect(page.getByRole("switch", { name: "Schedule" })).toBeChecked();
  await expect(page.getByLabel("Publish at")).toHaveValue(publishAt);
});
