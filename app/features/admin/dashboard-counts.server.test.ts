import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { blogPosts, projects } from "~/server/db/schema.server";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { makePost, makeProject } from "../../../tests/helpers/factories";
import { getDashboardCounts } from "./dashboard-counts.server";

describeEachDatabase("dashboard counts", (ctx) => {
  it("counts published, draft and scheduled posts and the projects, in one statement", async () => {
    await ctx.db.execute(sql`truncate table ${blogPosts} cascade`);
    await ctx.db.execute(sql`truncate table ${projects} cascade`);
    expect(await getDashboardCounts(ctx.db)).toEqual({ posts: { total: 0, published: 0, drafts: 0, scheduled: 0 }, projects: 0 });

    await makePost(ctx.db, { category: "Faith" });
    await makePost(ctx.db, { category: "Fun" });
    await makePost(ctx.db, { category: "Faith", published: false });
    await makePost(ctx.db, { category: "Family", published: false, scheduledAt: new Date(Date.now() + 3_600_000) });
    for (let i = 0; i < 3; i++) await makeProject(ctx.db);
    expect(await getDashboardCounts(ctx.db)).toEqual({ posts: { total: 4, published: 2, drafts: 1, scheduled: 1 }, projects: 3 });
  });
});
