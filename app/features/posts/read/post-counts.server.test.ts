import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { blogPosts, postCounts } from "~/server/db/schema.server";
import { describeEachDatabase } from "../../../../tests/helpers/databases";
import { makePost } from "../../../../tests/helpers/factories";
import { countPublishedPosts, getPostStats } from "./post-counts.server";

describeEachDatabase("post counts", (ctx) => {
  /** The counts post_counts holds must be those of counting the posts themselves. */
  async function expectExact() {
    const counted = await ctx.db
      .select({
        category: blogPosts.category,
        published: blogPosts.published,
        scheduled: sql<boolean>`${blogPosts.scheduledAt} is not null`.mapWith(Boolean),
        n: sql<number>`count(*)::int`,
      })
      .from(blogPosts)
      .groupBy(sql`1, 2, 3`);
    const kept = (
      await ctx.db
        .select({ category: postCounts.category, published: postCounts.published, scheduled: postCounts.scheduled, n: postCounts.n })
        .from(postCounts)
    ).filter((row) => row.n !== 0);
    const key = (row: { category: string; published: boolean; scheduled: boolean; n: number }) =>
      `${row.category}/${row.published}/${row.scheduled}=${row.n}`;
    expect(kept.map(key).sort()).toEqual(counted.map(key).sort());
  }

  it("stays exact through inserts, updates that change a post's kind, deletes and truncate", async () => {
    const before = await countPublishedPosts(ctx.db, "Faith");
    const a = await makePost(ctx.db, { category: "Faith" });
    const b = await makePost(ctx.db, { category: "Faith", published: false });
    const c = await makePost(ctx.db, { category: "Fun", published: false, scheduledAt: new Date(Date.now() + 3_600_000) });
    await expectExact();
    expect(await countPublishedPosts(ctx.db, "Faith")).toBe(before + 1);

    await ctx.db.update(blogPosts).set({ title: "Only the title" }).where(eq(blogPosts.id, a.id));
    await ctx.db.update(blogPosts).set({ published: true }).where(eq(blogPosts.id, b.id));
    await ctx.db.update(blogPosts).set({ category: "Family", scheduledAt: null, published: true }).where(eq(blogPosts.id, c.id));
    await expectExact();
    expect(await countPublishedPosts(ctx.db, "Faith")).toBe(before + 2);

    await ctx.db.delete(blogPosts).where(eq(blogPosts.id, a.id));
    await expectExact();
    expect(await countPublishedPosts(ctx.db, "Faith")).toBe(before + 1);

    await ctx.db.execute(sql`truncate table ${blogPosts} cascade`);
    expect(await getPostStats(ctx.db)).toEqual({ total: 0, published: 0, drafts: 0, scheduled: 0 });
    await makePost(ctx.db, { category: "Faith" });
    await expectExact();
    expect(await countPublishedPosts(ctx.db, "Faith")).toBe(1);
  });
});
