import fs from "node:fs";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { blogPosts, comments } from "~/server/db/schema.server";
import { runCli } from "../../../cli/commands";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { makePost, makeUser } from "../../../tests/helpers/factories";
import { tempDir } from "../../../tests/helpers/temp-dir";
import { importWordpressComments, wordpressCommentMarkdown } from "./comments-import.server";
import { importGhost } from "./ghost.server";

const FIXTURES = path.resolve(import.meta.dirname, "../../../tests/fixtures/imports");
const WXR = path.join(FIXTURES, "wordpress-export.xml");

describe("wordpressCommentMarkdown", () => {
  it("keeps WordPress's paragraphs and line breaks and turns its tags into Markdown", () => {
    expect(wordpressCommentMarkdown("One <em>two</em>\nthree\n\nFour")).toBe("One _two_  \nthree\n\nFour");
  });
});

describeEachDatabase("import-wordpress-comments", (ctx) => {
  let helloId = "";
  let secondId = "";

  beforeAll(async () => {
    helloId = (await makePost(ctx.db, { title: "Hello world", slug: "hello-world" })).id;
    secondId = (await makePost(ctx.db, { title: "Second post", slug: "second-post" })).id;
  });

  it("imports approved and pending comments with their threads, and says what it left out", async () => {
    const text = (await importWordpressComments(ctx.db, WXR)).lines().join("\n");
    expect(text).toContain("comments: 6 created, 0 updated, 5 skipped");
    expect(text).toContain("skipped 1: marked spam in WordPress");
    expect(text).toContain("skipped 1: in WordPress's trash");
    expect(text).toContain("skipped 1: pingbacks and trackbacks are not imported");
    expect(text).toContain("skipped 1: no post here with the slug 'never-imported' (import the posts first)");
    expect(text).toContain("skipped 1: on a WordPress page, not a post");

    const rows = await ctx.db
      .select({
        id: comments.id,
        postId: comments.postId,
        parentId: comments.parentId,
        authorName: comments.authorName,
        authorEmail: comments.authorEmail,
        authorUrl: comments.authorUrl,
        body: comments.body,
        bodyHtml: comments.bodyHtml,
        state: comments.state,
        ipAddress: comments.ipAddress,
        createdAt: comments.createdAt,
      })
      .from(comments)
      .orderBy(asc(comments.createdAt));
    const byName = new Map(rows.map((r) => [r.authorName, r]));
    const ada = byName.get("Ada Reader");
    expect(ada).toMatchObject({
      postId: helloId,
      parentId: null,
      authorEmail: "ada@example.com",
      authorUrl: "https://ada.example.com",
      state: "approved",
      ipAddress: "203.0.113.5",
    });
    expect(ada?.createdAt.toISOString()).toBe("2023-05-02T10:00:00.000Z");
    // The comments' own subset: links get rel, images become their alt text, scripts are gone.
    expect(ada?.bodyHtml).toContain("<strong>thanks</strong>");
    expect(ada?.bodyHtml).toContain('<a href="https://example.com/budget" rel="nofollow ugc noopener noreferrer">my budget</a>');
    expect(ada?.bodyHtml).toContain("<p>A second paragraph.");
    expect(ada?.bodyHtml).toContain("a picture");
    expect(ada?.bodyHtml).not.toContain("<img");
    expect(ada?.bodyHtml).not.toContain("alert(1)");
    expect(byName.get("Owner")?.parentId).toBe(ada?.id);
    expect(byName.get("Bo Waiting")?.state).toBe("pending");
    // Its parent was spam, so it starts a thread of its own.
    expect(byName.get("Cy Replier")?.parentId).toBeNull();
    expect(byName.get("Anonymous")).toMatchObject({ authorEmail: "", authorUrl: null, state: "approved" });
    expect(byName.get("Anonymous")?.createdAt.toISOString()).toBe("2023-05-06T11:00:00.000Z");
    expect(byName.get("Di")?.postId).toBe(secondId);
    expect(rows.map((r) => r.authorName)).not.toContain("Cheap pills");
  });

  it("imports nothing twice, and keeps what was decided or deleted here", async () => {
    const [bo] = await ctx.db.select({ id: comments.id }).from(comments).where(eq(comments.authorName, "Bo Waiting"));
    await ctx.db
      .update(comments)
      .set({ state: "spam" })
      .where(eq(comments.id, bo?.id ?? ""));
    await ctx.db.delete(comments).where(eq(comments.authorName, "Di"));
    const lines: string[] = [];
    await runCli(["import-wordpress-comments", WXR], {
      database: ctx.database,
      io: { out: (l) => lines.push(l), readStdin: async () => "" },
    });
    expect(lines[0]).toMatch(/^Imported comments from the WordPress export .*wordpress-export\.xml:$/);
    expect(lines).toContain("  comments: 0 created, 0 updated, 11 skipped");
    expect(lines).toContain("    skipped 5: unchanged since the last import");
    expect(lines).toContain("    skipped comment 10: deleted here after an earlier import (not brought back)");
    const rows = await ctx.db.select({ state: comments.state }).from(comments).where(eq(comments.authorName, "Bo Waiting"));
    expect(rows).toEqual([{ state: "spam" }]);
  });

  it("refuses a file that is not a WordPress export, with what it expected", async () => {
    const file = path.join(tempDir("wxr-"), "not.xml");
    fs.writeFileSync(file, "<html><body>hello</body></html>");
    await expect(importWordpressComments(ctx.db, file)).rejects.toThrow(/is not a WordPress export: expected <rss><channel><item>/);
    await expect(importWordpressComments(ctx.db, `${file}.missing`)).rejects.toThrow(/No such file/);
  });
});

describeEachDatabase("import-ghost comments", (ctx) => {
  beforeAll(async () => {
    await makeUser(ctx.db, { role: "admin", email: "owner@example.com" });
  });

  it("brings a Ghost export's published comments onto the imported posts, once", async () => {
    const file = path.join(FIXTURES, "ghost-comments-export.json");
    const text = (await importGhost(ctx.db, file, { defaultCategory: "Fun" })).lines().join("\n");
    expect(text).toContain("posts: 1 created, 0 updated, 1 skipped");
    expect(text).toContain("comments: 2 created, 0 updated, 2 skipped");
    expect(text).toContain("skipped 1: hidden in Ghost");
    expect(text).toContain("skipped 1: its post was not imported");
    const [post] = await ctx.db.select({ id: blogPosts.id }).from(blogPosts).where(eq(blogPosts.slug, "talk-to-me"));
    const rows = await ctx.db
      .select({
        id: comments.id,
        postId: comments.postId,
        parentId: comments.parentId,
        name: comments.authorName,
        email: comments.authorEmail,
        html: comments.bodyHtml,
        state: comments.state,
      })
      .from(comments)
      .orderBy(asc(comments.createdAt));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ postId: post?.id, parentId: null, name: "Gia Member", email: "gia@example.com", state: "approved" });
    // Headings are not in the comments' subset.
    expect(rows[0]?.html).toBe("<p>Lovely <em>post</em>.</p>\n<p>Heading</p>");
    expect(rows[1]).toMatchObject({ parentId: rows[0]?.id, name: "Anonymous", email: "hal@example.com" });

    const again = (await importGhost(ctx.db, file, { defaultCategory: "Fun" })).lines().join("\n");
    expect(again).toContain("comments: 0 created, 0 updated, 4 skipped");
  });
});
