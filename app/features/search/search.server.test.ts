import { expect, it } from "vitest";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { makePost } from "../../../tests/helpers/factories";
import { searchPosts } from "./search.server";

describeEachDatabase("search input", (ctx) => {
  it("answers runs of exclusion signs like one (33 of them overflowed the query parser: a 500)", async () => {
    await makePost(ctx.db, { title: "Walking with purpose", content: "An e-mail about walking" });
    for (const query of ["-".repeat(33), "-".repeat(500), "- ".repeat(40) + "x", "walking " + "-".repeat(40) + "purpose"]) {
      await expect(searchPosts(ctx.db, query, 1), query.slice(0, 20)).resolves.toBeDefined();
    }
    expect((await searchPosts(ctx.db, "walking " + "-".repeat(40) + "purpose", 1)).total).toBe(0);
    expect((await searchPosts(ctx.db, "walking --- e-mail", 1)).total).toBe(0);
    expect((await searchPosts(ctx.db, "walking e-mail", 1)).total).toBe(1);
  });
});
