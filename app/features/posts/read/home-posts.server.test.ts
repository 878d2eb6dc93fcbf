import { asc, eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { postsFileCount, postsFileIds } from "~/features/pages/sitemap";
import { blogPosts } from "~/server/db/schema.server";
import { describeEachDatabase } from "../../../../tests/helpers/databases";
import { makePost } from "../../../../tests/helpers/factories";
import { postIdsOnFileEdges } from "../../../../tests/helpers/sitemap";
import { getSitemapDates, listPublishedPostsForSitemap } from "./home-posts.server";

const publishedById = (ctx: { db: Parameters<typeof listPublishedPostsForSitemap>[0] }) =>
  ctx.db
    .select({ category: blogPosts.category, slug: blogPosts.slug, updatedAt: blogPosts.updatedAt })
    .from(blogPosts)
    .where(eq(blogPosts.published, true))
    .orderBy(asc(blogPosts.id));

describeEachDatabase("sitemap files' rows", (ctx) => {
  it("are the published posts, by id, with updated_at to the millisecond a Date read from the column has", async () => {
    const createdAt = new Date("2024-01-01T00:00:00Z");
    // Microseconds a Date cannot hold, and a time before 1970 (rounding down is not truncating there).
    const stamps = ["2024-05-01 10:00:00.999999+00", "1969-12-31 23:59:59.123456+00", "2024-05-01 10:00:00+00"];
    for (const [i, stamp] of stamps.entries()) {
      const post = await makePost(ctx.db, { published: true, createdAt: new Date(createdAt.getTime() + i * 1000) });
      await ctx.db.execute(sql`update blog_posts set updated_at = ${stamp}::timestamptz where id = ${post.id}`);
    }
    await makePost(ctx.db, { published: true, createdAt, category: "Fun" });
    await makePost(ctx.db, { published: false });
    const expected = await publishedById(ctx);
    expect(expected.map((p) => p.updatedAt.toISOString())).toContain("1969-12-31T23:59:59.123Z");
    expect(await listPublishedPostsForSitemap(ctx.db)).toEqual(expected);
  });

  it("hold every published post in exactly one file, posts on the files' edges included", async () => {
    const files = 16;
    const ids = postIdsOnFileEdges(files);
    for (const [i, id] of ids.entries()) await makePost(ctx.db, { id, published: i % 5 !== 3 });
    for (let i = 0; i < 20; i++) await makePost(ctx.db, { published: i % 4 !== 0 });
    const expected = await publishedById(ctx);
    const { count } = await getSitemapDates(ctx.db);
    expect(count).toBe(expected.length);
    // Two posts per file on average: as many files as the site would have with SITEMAP_POSTS_PER_FILE=2.
    const fileCount = postsFileCount(count, 2);
    expect(fileCount).toBeGreaterThanOrEqual(files);
    const byFile = [];
    for (let file = 1; file <= fileCount; file++) byFile.push(await listPublishedPostsForSitemap(ctx.db, postsFileIds(file, fileCount)));
    // Files in order, posts by id in each: together, every published post once, in id order.
    expect(byFile.flat()).toEqual(expected);
    expect(byFile.filter((rows) => rows.length > 0).length).toBeGreaterThan(files / 2);
  });
});
