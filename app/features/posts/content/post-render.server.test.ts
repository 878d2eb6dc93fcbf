import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { blogPosts, uploads } from "~/server/db/schema.server";
import { describeEachDatabase } from "../../../../tests/helpers/databases";
import { makePost, makeUser } from "../../../../tests/helpers/factories";
import { backfillRenderedPosts, postBodyOf } from "./post-render.server";
import { createPost, getPostBySlug, listFeedPosts, updatePost } from "../write/posts.server";

const MARKDOWN = "## Why bother\n\nA **crisis** averted.\nSee ![Run](/uploads/blog-images/u/run.jpg)";

describeEachDatabase("stored post rendering", (ctx) => {
  it("create and update store the rendered HTML and its text; feeds read them", async () => {
    const { actor } = await makeUser(ctx.db, { role: "moderator" });
    await ctx.db.insert(uploads).values({
      storageKey: "blog-images/u/run.jpg",
      contentType: "image/jpeg",
      byteSize: 10,
      width: 1200,
      height: 800,
      variants: [{ width: 640, key: "blog-images/u/run-640w.webp", byteSize: 5 }],
    });
    const created = await createPost(ctx.db, actor, {
      title: `Rendered ${Date.now()}`,
      content: MARKDOWN,
      category: "Fun",
      published: true,
    });
    const post = await getPostBySlug(ctx.db, created.slug);
    expect(post?.contentHtml).toContain('<h3 id="why-bother">Why bother</h3>');
    expect(post?.contentHtml).toContain("<strong>crisis</strong>");
    // Our upload gets its size and srcset from the uploads row.
    expect(post?.contentHtml).toMatch(
      /<img src="\/uploads\/blog-images\/u\/run\.jpg" alt="Run" loading="lazy" decoding="async" width="1200" height="800" srcset="\/uploads\/blog-images\/u\/run-640w\.webp 640w, \/uploads\/blog-images\/u\/run\.jpg 1200w"/,
    );
    expect(post?.contentText).toBe("Why bother\n\nA crisis averted.\nSee");

    await updatePost(ctx.db, actor, created.slug, { title: "Rendered again", content: "Plain *now*", category: "Fun", published: true });
    const updated = await getPostBySlug(ctx.db, created.slug);
    expect(updated?.contentHtml).toBe("<p>Plain <em>now</em></p>");
    expect(updated?.contentText).toBe("Plain now");
    const feed = await listFeedPosts(ctx.db, "Fun");
    expect(feed.find((p) => p.id === created.id)).toMatchObject({ content: "Plain now", contentHtml: "<p>Plain <em>now</em></p>" });
  });

  it("the start-up backfill renders rows stored without HTML; until then the page renders on demand", async () => {
    const row = await makePost(ctx.db, { content: "Old **bold** post" });
    expect(row.contentHtml).toBeNull();
    expect(await postBodyOf(ctx.db, row)).toEqual({ html: "<p>Old <strong>bold</strong> post</p>", text: "Old bold post" });
    const feed = await listFeedPosts(ctx.db, "Fun");
    expect(feed.find((p) => p.id === row.id)).toMatchObject({ content: "Old **bold** post", contentHtml: null });

    expect(await backfillRenderedPosts(ctx.db)).toBeGreaterThanOrEqual(1);
    const [stored] = await ctx.db.select().from(blogPosts).where(eq(blogPosts.id, row.id));
    expect(stored).toMatchObject({ contentHtml: "<p>Old <strong>bold</strong> post</p>", contentText: "Old bold post" });
    expect(await backfillRenderedPosts(ctx.db)).toBe(0);
  });
});
