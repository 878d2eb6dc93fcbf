import { asc, eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { blogPosts } from "~/server/db/schema.server";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { makePost } from "../../../tests/helpers/factories";
import { listPublishedPostsForSitemap } from "./home-posts.server";

describeEachDatabase("sitemap files' rows", (ctx) => {
  it("are the published posts, oldest first, with updated_at to the millisecond a Date read from the column has", async () => {
    const createdAt = new Date("2024-01-01T00:00:00Z");
    // Microseconds a Date cannot hold, and a time before 1970 (rounding down is not truncating there).
    const stamps = ["2024-05-01 10:00:00.999999+00", "1969-12-31 23:59:59.123456+00", "2024-05-01 10:00:00+00"];
    for (const [i, stamp] of stamps.entries()) {
      const post = await makePost(ctx.db, { published: true, createdAt: new Date(createdAt.getTime() + i * 1000) });
      await ctx.db.execute(sql`update blog_posts set updated_at = ${stamp}::timestamptz where id = ${post.id}`);
    }
    // Same creation time: the id decides the order.
    await makePost(ctx.db, { published: true, createdAt, category: "Fun" });
    await makePost(ctx.db, { published: false });
    const expected = await ctx.db
      .select({ category: blogPosts.category, slug: blogPosts.slug, updatedAt: blogPosts.updatedAt })
      .from(blogPosts)
      .where(eq(blogPosts.published, true))
      .orderBy(asc(blogPosts.createdAt), asc(blogPosts.id));
    expect(expected.map((p) => p.updatedAt.toISOString())).toContain("1969-12-31T23:59:59.123Z");
    expect(await listPublishedPostsForSitemap(ctx.db)).toEqual(expected);
    expect(await listPublishedPostsForSitemap(ctx.db, 2, 2)).toEqual(expected.slice(2, 4));
    expect(await listPublishedPostsForSitemap(ctx.db, 9, 2)).toEqual([]);
  });
});
