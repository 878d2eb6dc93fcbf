import { eq } from "drizzle-orm";
import sharp from "sharp";
import { expect, it } from "vitest";
import { createPost, updatePost } from "~/features/posts/write/posts.server";
import { readSiteSettings, saveSiteSettings } from "~/features/settings/settings.server";
import { settingsFormValues } from "~/features/settings/settings-schema";
import { shareImageJob, sweepStaleShareImages } from "~/features/share-images/share-images.server";
import { jobs } from "~/server/db/schema.server";
import { JobRunner } from "~/server/jobs/runner.server";
import { resetEnvForTests } from "~/server/env.server";
import { createLocalStorage } from "~/server/storage.server";
import { describeEachDatabase } from "../helpers/databases";
import { signedInAs, unique } from "../helpers/factories";
import { useSignedInServer } from "../helpers/test-server";
import { tempDir } from "../helpers/temp-dir";

// The build reads UPLOAD_DIR when it first stores a file; set before the server starts (and read
// again here, where the imports above may have read the environment already).
const uploadDir = tempDir("share-images-");
process.env.UPLOAD_DIR = uploadDir;
resetEnvForTests();
const storage = createLocalStorage(uploadDir);

/** Where a card's URL is stored: named by its hash alone (two pages showing the same card share it). */
function storageKeyOf(cardPath: string): string {
  const hash = /([a-f0-9]{24})\.png$/.exec(cardPath)?.[1];
  if (!hash) throw new Error(`not a card URL: ${cardPath}`);
  return `share-images/${hash}.png`;
}

const CARD_URL = /\/share-images\/(post\/[0-9a-f-]{36}|category\/[A-Za-z]+)\/[a-f0-9]{24}\.png$/;

function metaContent(html: string, attribute: "property" | "name", key: string): string | null {
  const match = new RegExp(`<meta ${attribute}="${key.replace(/[.:]/g, "\\$&")}" content="([^"]*)"/>`).exec(html);
  return match?.[1] ?? null;
}

/** Generated share images through the production server: tags, bytes, caching, renames. */
describeEachDatabase("share images", (ctx) => {
  const server = useSignedInServer(ctx, "admin");
  let admin: { id: string; role: "admin" } | undefined;
  const actor = async () => (admin ??= { id: (await signedInAs(ctx.db, "admin")).userId, role: "admin" });

  async function cardOf(path: string) {
    const html = await (await server.fetch(path)).text();
    const image = metaContent(html, "property", "og:image") ?? "";
    return {
      html,
      image,
      path: new URL(image).pathname,
      twitter: metaContent(html, "name", "twitter:image"),
      type: metaContent(html, "property", "og:image:type"),
      width: metaContent(html, "property", "og:image:width"),
      height: metaContent(html, "property", "og:image:height"),
      alt: metaContent(html, "property", "og:image:alt"),
    };
  }

  async function expectPng(path: string) {
    const r = await server.fetch(path);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("image/png");
    expect(r.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    const body = Buffer.from(await r.arrayBuffer());
    const meta = await sharp(body).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 1200, 630]);
    return body;
  }

  it("a post without a featured image is shared with its own 1200×630 PNG, cached for a year", async () => {
    const title = `Share card ${unique()}`;
    const post = await createPost(ctx.db, await actor(), { title, content: "Body.", category: "Finance", published: true });
    const card = await cardOf(`/7fs/Finance/${post.slug}`);
    expect(card.image).toMatch(/^https?:\/\//);
    expect(card.path).toMatch(CARD_URL);
    expect(card.path).toContain(`/share-images/post/${post.id}/`);
    expect(card.twitter).toBe(card.image);
    expect([card.type, card.width, card.height]).toEqual(["image/png", "1200", "630"]);
    expect(card.alt).toContain(title);
    expect(card.alt).toContain("Finance");
    expect(metaContent(card.html, "name", "twitter:image:alt")).toBe(card.alt);
    expect(card.html).toContain(`"image":"${card.image}"`);
    // Drawn on the first request (the job may not have run yet), then served as stored: the same bytes.
    const first = await expectPng(card.path);
    const second = await expectPng(card.path);
    expect(second.equals(first)).toBe(true);
  });

  it("the save queued the drawing in its transaction; the job stores the card", async () => {
    const post = await createPost(ctx.db, await actor(), {
      title: `Queued ${unique()}`,
      content: "Body.",
      category: "Faith",
      published: true,
    });
    const card = await cardOf(`/7fs/Faith/${post.slug}`);
    const hash = /([a-f0-9]{24})\.png$/.exec(card.path)?.[1];
    const queued = await ctx.db
      .select({ kind: jobs.kind })
      .from(jobs)
      .where(eq(jobs.dedupeKey, `share-image:${hash}`));
    expect(queued).toEqual([{ kind: shareImageJob.kind }]);
    const runner = new JobRunner({ database: () => ctx.database, tasks: [], pollMs: 60_000, kinds: [shareImageJob.kind] });
    try {
      expect(await runner.drain()).toBeGreaterThanOrEqual(1);
    } finally {
      await runner.stop();
    }
    await expectPng(card.path);
    // A draft queues nothing and has no card: its page keeps the site's image.
    const draft = await createPost(ctx.db, await actor(), {
      title: `Draft ${unique()}`,
      content: "Body.",
      category: "Faith",
      published: false,
    });
    const draftJobs = await ctx.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.kind, shareImageJob.kind));
    const draftPage = await (await server.fetch(`/7fs/Faith/${draft.slug}`, { headers: { cookie: server.cookie } })).text();
    expect(metaContent(draftPage, "property", "og:image")).not.toMatch(CARD_URL);
    expect((await server.fetch(`/share-images/post/${draft.id}/${hash}.png`)).status).toBe(404);
    expect((await ctx.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.kind, shareImageJob.kind))).length).toBe(draftJobs.length);
  });

  it("a new title is a new image URL; the old URL redirects to the current image", async () => {
    const post = await createPost(ctx.db, await actor(), {
      title: `Before ${unique()}`,
      content: "Body.",
      category: "Fun",
      published: true,
    });
    const before = await cardOf(`/7fs/Fun/${post.slug}`);
    const beforePng = await expectPng(before.path);
    const newTitle = `After ${unique()}`;
    await updatePost(ctx.db, await actor(), post.slug, { title: newTitle, content: "Body.", category: "Fun", published: true });
    const after = await cardOf(`/7fs/Fun/${post.slug}`);
    expect(after.path).toMatch(CARD_URL);
    expect(after.path).not.toBe(before.path);
    expect(after.alt).toContain(newTitle);
    const afterPng = await expectPng(after.path);
    expect(afterPng.equals(beforePng)).toBe(false);
    const old = await server.fetch(before.path);
    expect(old.status).toBe(302);
    expect(old.headers.get("location")).toBe(after.path);
    // An unchanged save keeps the URL.
    await updatePost(ctx.db, await actor(), post.slug, { title: newTitle, content: "Other body.", category: "Fun", published: true });
    expect((await cardOf(`/7fs/Fun/${post.slug}`)).path).toBe(after.path);
  });

  it("a renamed post's old card is deleted from the storage by the sweep; the current cards stay", async () => {
    const post = await createPost(ctx.db, await actor(), {
      title: `Old name ${unique()}`,
      content: "Body.",
      category: "Friends",
      published: true,
    });
    const before = await cardOf(`/7fs/Friends/${post.slug}`);
    await expectPng(before.path);
    const oldKey = storageKeyOf(before.path);
    expect(await storage.get(oldKey)).not.toBeNull();
    await updatePost(ctx.db, await actor(), post.slug, {
      title: `New name ${unique()}`,
      content: "Body.",
      category: "Friends",
      published: true,
    });
    const after = await cardOf(`/7fs/Friends/${post.slug}`);
    const afterPng = await expectPng(after.path);
    const newKey = storageKeyOf(after.path);
    const category = await cardOf("/7fs/Friends");
    await expectPng(category.path);

    const deleted = await sweepStaleShareImages(ctx.db, await readSiteSettings(ctx.db));
    expect(deleted).toContain(oldKey);
    expect(await storage.get(oldKey)).toBeNull();
    expect((await storage.get(newKey))?.body.equals(afterPng)).toBe(true);
    expect(await storage.get(storageKeyOf(category.path))).not.toBeNull();
    // The page's image is still served, and the old URL still leads to it.
    expect((await expectPng(after.path)).equals(afterPng)).toBe(true);
    expect((await server.fetch(before.path)).headers.get("location")).toBe(after.path);
    // Nothing else is stale: a second sweep deletes nothing.
    expect(await sweepStaleShareImages(ctx.db, await readSiteSettings(ctx.db))).toEqual([]);
  });

  it("a post with a featured image keeps it; category pages get a card of their own", async () => {
    const post = await createPost(ctx.db, await actor(), {
      title: `Featured ${unique()}`,
      content: "Body.",
      category: "Family",
      published: true,
      featuredImageUrl: "https://cdn.example.com/pics/photo.jpg",
      featuredImageAlt: "A family picnic",
    });
    const featured = await cardOf(`/7fs/Family/${post.slug}`);
    expect(featured.image).toBe("https://cdn.example.com/pics/photo.jpg");
    expect(featured.alt).toBe("A family picnic");
    const category = await cardOf("/7fs/Family");
    expect(category.path).toMatch(/^\/share-images\/category\/Family\/[a-f0-9]{24}\.png$/);
    expect([category.type, category.width, category.height]).toEqual(["image/png", "1200", "630"]);
    await expectPng(category.path);
  });

  it("answers 404 (never 500) to addresses of no card", async () => {
    const hash = "0".repeat(24);
    for (const path of [
      `/share-images/post/not-a-uuid/${hash}.png`,
      `/share-images/post/00000000-0000-4000-8000-000000000000/${hash}.png`,
      `/share-images/category/Nope/${hash}.png`,
      `/share-images/category/family/${hash}.png`,
      `/share-images/category/Family/${hash}.jpg`,
      `/share-images/category/Family/..%2F..%2Fetc.png`,
      `/share-images/user/Family/${hash}.png`,
    ]) {
      expect((await server.fetch(path)).status, path).toBe(404);
    }
  });

  // Last: it renames the site for the rest of the suite.
  it("a new site name is a new card URL for categories and posts; the save queues the category cards", async () => {
    const post = await createPost(ctx.db, await actor(), {
      title: `Renamed ${unique()}`,
      content: "Body.",
      category: "Fitness",
      published: true,
    });
    const [postBefore, categoryBefore] = [await cardOf(`/7fs/Fitness/${post.slug}`), await cardOf("/7fs/Fitness")];
    const siteName = `Renamed site ${unique()}`;
    await saveSiteSettings(ctx.db, await actor(), { ...settingsFormValues(await readSiteSettings(ctx.db)), siteName });
    await expect.poll(async () => (await cardOf("/7fs/Fitness")).alt).toContain(siteName);
    const categoryAfter = await cardOf("/7fs/Fitness");
    expect(categoryAfter.path).not.toBe(categoryBefore.path);
    const hash = /([a-f0-9]{24})\.png$/.exec(categoryAfter.path)?.[1];
    expect(
      await ctx.db
        .select({ kind: jobs.kind })
        .from(jobs)
        .where(eq(jobs.dedupeKey, `share-image:${hash}`)),
    ).toEqual([{ kind: shareImageJob.kind }]);
    const postAfter = await cardOf(`/7fs/Fitness/${post.slug}`);
    expect(postAfter.path).not.toBe(postBefore.path);
    expect(postAfter.alt).toContain(siteName);
    await expectPng(postAfter.path);
  });
});
