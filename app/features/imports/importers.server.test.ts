import fs from "node:fs";
import path from "node:path";
import { asc, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blogMedia, blogPosts, importMappings, jobs, projects, subscribers, uploads } from "~/server/db/schema.server";
import { getStoredRoles } from "~/features/users/users.server";
import { resetEnvForTests } from "~/server/env.server";
import { FILE_LIMITS } from "~/server/limits.server";
import { runCli } from "../../../cli/commands";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { makeUser } from "../../../tests/helpers/factories";
import { png } from "../../../tests/fixtures/images";
import { closedPortUrl, startImageServer, type ImageServer } from "../../../tests/helpers/image-server";
import { tempDir } from "../../../tests/helpers/temp-dir";
import { importGhost } from "./ghost.server";
import { importSupabase } from "./supabase.server";

// The fixture servers listen on 127.0.0.1, which the outbound guard refuses unless this is set.
process.env.OUTBOUND_ALLOW_PRIVATE = "true";

const FIXTURES = path.resolve(import.meta.dirname, "../../../tests/fixtures/imports");
const BUCKET_PATH = "/storage/v1/object/public/blog-images";

// Uploads of this file's runs go to a directory of their own, never the checkout's ./data.
process.env.UPLOAD_DIR = tempDir("import-uploads-");
resetEnvForTests();

let server: ImageServer;
let deadUrl = "";

beforeAll(async () => {
  const image = { body: await png(80, 60), type: "image/png" };
  server = await startImageServer({
    [`${BUCKET_PATH}/posts/cover.png`]: image,
    [`${BUCKET_PATH}/projects/project.png`]: image,
    "/content/images/2024/01/hero.png": image,
    "/content/images/2024/02/table.png": { body: Buffer.from("not an image at all"), type: "image/png" },
  });
  deadUrl = await closedPortUrl();
});

afterAll(async () => {
  await server?.close();
});

/** The fixture files with the image hosts pointed at this test's servers, in a directory of their own. */
function fixtureCopy(name: string, edit: (text: string) => string = (t) => t): string {
  const from = path.join(FIXTURES, name);
  const to = tempDir("import-fixture-");
  const files = fs.statSync(from).isDirectory()
    ? fs.readdirSync(from).map((f) => [path.join(from, f), path.join(to, f)])
    : [[from, path.join(to, name)]];
  for (const [src = "", dest = ""] of files)
    fs.writeFileSync(
      dest,
      edit(fs.readFileSync(src, "utf8").replaceAll("http://images.invalid", server.url).replaceAll("http://dead.invalid", deadUrl)),
    );
  return fs.statSync(from).isDirectory() ? to : path.join(to, name);
}

describeEachDatabase("import-supabase", (ctx) => {
  let dir = "";
  let adminId = "";
  let editorId = "";

  beforeAll(async () => {
    server.hits.clear();
    adminId = (await makeUser(ctx.db, { role: "admin", email: "owner@example.com" })).id;
    editorId = (await makeUser(ctx.db, { email: "editor@example.com" })).id;
    dir = fixtureCopy("supabase");
    await ctx.db.insert(subscribers).values({ email: "reader@example.com", categories: ["Faith", "Fitness"], state: "confirmed" });
  });

  it("imports valid rows, reports and skips malformed ones, and re-stores the bucket's images", async () => {
    const report = await importSupabase(ctx.db, dir);
    const text = report.lines().join("\n");
    expect(text).toContain("blog_posts: 3 created, 0 updated, 3 skipped");
    expect(text).toMatch(/skipped line 4 \(id 6f1d2c3a-0000-4000-8000-000000000003\): title: Title is required/);
    expect(text).toMatch(/skipped line 5 \(id 6f1d2c3a-0000-4000-8000-000000000004\): category: Choose one of the seven categories/);
    expect(text).toMatch(/skipped line 7 \(id 6f1d2c3a-0000-4000-8000-000000000006\): published: must be true or false/);
    expect(text).toContain("blog_media: 2 created, 0 updated, 2 skipped");
    expect(text).toMatch(/skipped line 4 \(id 9a000000-0000-4000-8000-000000000003\): media_type: must be youtube, vimeo, video or image/);
    expect(text).toMatch(
      /skipped line 5 \(id 9a000000-0000-4000-8000-000000000004\): its post 6f1d2c3a-0000-4000-8000-000000000003 was not imported/,
    );
    expect(text).toContain("projects: 2 created, 0 updated, 1 skipped");
    expect(text).toMatch(/skipped row 2 \(id 7b000000-0000-4000-8000-000000000002\): type: Type must be Web or Other/);
    expect(text).toContain("user_roles: 1 created, 0 updated, 2 skipped");
    expect(text).toMatch(/no user here with id 0b7c1f7e-aaaa-4bbb-8ccc-000000000003; create the account, then run again/);
    expect(text).toMatch(/role 'superuser' is not admin or moderator/);
    expect(text).toContain("Images kept as external URLs (2):");
    expect(text).toContain(`${server.url}${BUCKET_PATH}/posts/missing.png (HTTP 404)`);
    expect(text).toMatch(new RegExp(`${deadUrl}${BUCKET_PATH}/posts/run.png \\(not reachable`));

    const posts = await ctx.db.select().from(blogPosts).orderBy(asc(blogPosts.createdAt));
    expect(posts.map((p) => [p.slug, p.category, p.published])).toEqual([
      ["trusting-the-process", "Faith", true],
      ["old-friends-new-places", "Friends", false],
      ["marathon-training", "Fitness", true],
    ]);
    const [faith, friends, fitness] = posts;
    expect(faith?.createdAt.toISOString()).toBe("2024-01-15T10:30:00.123Z");
    expect(faith?.publishedAt?.toISOString()).toBe("2024-01-15T10:30:00.123Z");
    expect(faith?.updatedAt.toISOString()).toBe("2024-02-01T08:00:00.000Z");
    expect(faith?.featured).toBe(true);
    expect(faith?.excerpt).toBe("A walk of faith");
    // The source's author is not a user here: the import's administrator is.
    expect(faith?.authorId).toBe(adminId);
    expect(friends?.content).toBe('We said "hello" again, after years.');
    expect(friends?.publishedAt).toBeNull();
    // One download for the three uses of the cover: featured image, in the text, in the media list.
    expect(server.hits.get(`${BUCKET_PATH}/posts/cover.png`)).toBe(1);
    const cover = faith?.featuredImageUrl ?? "";
    expect(cover).toMatch(/^\/uploads\/blog-images\/.+\.png$/);
    expect(faith?.content).toContain(`![Sunrise](${cover})`);
    expect(faith?.content).toContain(`${server.url}${BUCKET_PATH}/posts/missing.png`);
    expect(faith?.contentHtml).toContain(cover);
    expect(fitness?.featuredImageUrl).toBe(`${deadUrl}${BUCKET_PATH}/posts/run.png`);

    const media = await ctx.db.select().from(blogMedia).orderBy(asc(blogMedia.displayOrder));
    expect(media.map((m) => [m.postId, m.mediaType, m.mediaUrl, m.caption])).toEqual([
      [faith?.id, "youtube", "https://www.youtube.com/watch?v=dQw4w9WgXcQ", "The talk"],
      [faith?.id, "image", cover, "Sunrise again"],
    ]);
    const imported = await ctx.db.select().from(projects).orderBy(asc(projects.displayOrder));
    expect(imported.map((p) => [p.title, p.type, p.featured, p.displayOrder])).toEqual([
      ["Family recipes site", "web", true, 0],
      ["Woodworking bench", "other", false, 2],
    ]);
    expect(imported[0]?.imageUrl).toMatch(/^\/uploads\/blog-images\/.+\.png$/);
    expect(imported[0]?.createdAt.toISOString()).toBe("2023-11-01T12:00:00.000Z");
    expect(await getStoredRoles(ctx.db, editorId)).toEqual(["moderator"]);
    // An imported post sends no email to the Faith and Fitness subscriber: it is old news.
    const [mails] = await ctx.db.select({ n: count() }).from(jobs).where(eq(jobs.kind, "subscriptions.newsletter-email"));
    expect(mails?.n ?? 0).toBe(0);
  });

  it("is idempotent: a second run creates nothing and downloads no image it already has", async () => {
    const [before] = await ctx.db.select({ n: count() }).from(uploads);
    const text = (await importSupabase(ctx.db, dir)).lines().join("\n");
    expect(text).toContain("blog_posts: 0 created, 0 updated, 6 skipped");
    expect(text).toContain("skipped 3: unchanged since the last import");
    expect(text).toContain("blog_media: 0 created, 0 updated, 4 skipped");
    expect(text).toContain("projects: 0 created, 0 updated, 3 skipped");
    expect(text).toContain("skipped 1: editor@example.com already has the role");
    expect(server.hits.get(`${BUCKET_PATH}/posts/cover.png`)).toBe(1);
    const [after] = await ctx.db.select({ n: count() }).from(uploads);
    expect(after?.n).toBe(before?.n);
    const [posts] = await ctx.db.select({ n: count() }).from(blogPosts);
    expect(posts?.n).toBe(3);
  });

  it("updates a row whose source changed, and leaves a post deleted here deleted", async () => {
    const edited = fixtureCopy("supabase", (t) => t.replace("Faith is a long walk.", "Faith is a long, long walk."));
    await ctx.db.delete(blogPosts).where(eq(blogPosts.slug, "marathon-training"));
    const text = (await importSupabase(ctx.db, edited)).lines().join("\n");
    expect(text).toContain("blog_posts: 0 created, 1 updated, 5 skipped");
    expect(text).toMatch(/skipped line 6 \(id 6f1d2c3a-0000-4000-8000-000000000005\): deleted here after an earlier import/);
    const [post] = await ctx.db.select().from(blogPosts).where(eq(blogPosts.slug, "trusting-the-process"));
    expect(post?.content).toContain("Faith is a long, long walk.");
    expect(post?.version).toBe(2);
  });

  it("refuses a missing directory and reports an unreadable file, importing the rest", async () => {
    await expect(importSupabase(ctx.db, path.join(dir, "nope"))).rejects.toThrow(/No such directory/);
    const broken = fixtureCopy("supabase");
    fs.writeFileSync(path.join(broken, "projects.json"), "[{ not json");
    fs.rmSync(path.join(broken, "user_roles.json"));
    const text = (await importSupabase(ctx.db, broken)).lines().join("\n");
    expect(text).toMatch(/projects: projects\.json is not valid JSON/);
    expect(text).toContain("user_roles: no user_roles.csv or user_roles.json in the directory; nothing imported.");
    fs.writeFileSync(path.join(broken, "projects.json"), `[{"title": ${"[".repeat(100_000)}${"]".repeat(100_000)}}]`);
    expect((await importSupabase(ctx.db, broken)).lines().join("\n")).toContain(
      "projects: projects.json is nested more than 64 levels deep; nothing imported from it.",
    );
  });
});

describeEachDatabase("import-ghost", (ctx) => {
  let file = "";
  let writerId = "";
  const options = () => ({ tagMap: JSON.parse(fs.readFileSync(path.join(FIXTURES, "ghost-tags.json"), "utf8")), ghostUrl: server.url });

  beforeAll(async () => {
    server.hits.clear();
    await makeUser(ctx.db, { role: "admin", email: "owner@example.com" });
    writerId = (await makeUser(ctx.db, { role: "moderator", email: "writer@example.com" })).id;
    file = fixtureCopy("ghost-export.json");
  });

  it("converts HTML, Lexical and mobiledoc bodies, maps tags and keeps dates, flags and drafts", async () => {
    const text = (await importGhost(ctx.db, file, options())).lines().join("\n");
    expect(text).toContain("posts: 4 created, 0 updated, 4 skipped");
    expect(text).toMatch(
      /skipped post 4 \(random-thoughts\): no category for its tags \(Random\): map them with --map or --tag TAG=CATEGORY/,
    );
    expect(text).toMatch(/skipped post 5 \(no-title\): title: Title is required/);
    expect(text).toMatch(/skipped post 8 \(empty-body\): content: Content is required/);
    expect(text).toContain("skipped 1: Ghost pages are not imported (only posts)");
    expect(text).toMatch(new RegExp(`${server.url}/content/images/2024/02/table.png \\(`));

    const posts = await ctx.db.select().from(blogPosts);
    const bySlug = new Map(posts.map((p) => [p.slug, p]));
    const budget = bySlug.get("budget-like-a-pro");
    expect(budget?.category).toBe("Finance");
    expect(budget?.featured).toBe(true);
    expect(budget?.published).toBe(true);
    expect(budget?.publishedAt?.toISOString()).toBe("2024-04-01T09:00:00.000Z");
    expect(budget?.excerpt).toBe("Money basics.");
    expect(budget?.authorId).toBe(writerId);
    expect(budget?.featuredImageAlt).toBe("A rising chart");
    expect(budget?.featuredImageUrl).toMatch(/^\/uploads\/blog-images\/.+\.png$/);
    expect(server.hits.get("/content/images/2024/01/hero.png")).toBe(1);
    expect(budget?.content).toContain("## Start here");
    expect(budget?.content).toContain("Track **every** expense & _review_ weekly.");
    expect(budget?.content).toContain(`![Chart](${budget?.featuredImageUrl})`);
    expect(budget?.content).not.toContain("alert(1)");

    const family = bySlug.get("family-table");
    expect(family?.category).toBe("Family");
    expect(family?.published).toBe(false);
    expect(family?.publishedAt).toBeNull();
    expect(family?.content).toContain("## Sunday dinners");
    expect(family?.content).toContain("Everyone brings **one dish** and [_a recipe_](https://example.com/recipes).");
    expect(family?.content).toMatch(/-\s+Soup\n-\s+Bread/);
    expect(family?.content).toContain("```js\nconst table = 'set';\n```");
    expect(family?.content).toContain("**Written in Markdown** already.");
    // Not an image: kept where it was, and reported.
    expect(family?.content).toContain(`![The table](${server.url}/content/images/2024/02/table.png)`);

    const friends = bySlug.get("friends-again");
    expect(friends?.category).toBe("Friends");
    expect(friends?.content).toContain("We met _again_ at [the park](https://example.com/friends).");
    expect(friends?.content).toMatch(/- one\n- two/);
    expect(friends?.content).toMatch(/1\.\s+First\n2\.\s+Second/);

    const later = bySlug.get("coming-soon");
    expect(later?.published).toBe(false);
    expect(later?.scheduledAt?.toISOString()).toBe("2099-01-01T00:00:00.000Z");
    const [mapped] = await ctx.db.select({ n: count() }).from(importMappings).where(eq(importMappings.kind, "post"));
    expect(mapped?.n).toBe(4);
  });

  it("is idempotent, and a default category brings in the unmapped post on a re-run", async () => {
    const again = (await importGhost(ctx.db, file, options())).lines().join("\n");
    expect(again).toContain("posts: 0 created, 0 updated, 8 skipped");
    expect(server.hits.get("/content/images/2024/01/hero.png")).toBe(1);
    const lines: string[] = [];
    await runCli(
      ["import-ghost", file, "--map", path.join(FIXTURES, "ghost-tags.json"), "--tag", "random=fun", "--ghost-url", server.url],
      { database: ctx.database, io: { out: (l) => lines.push(l), readStdin: async () => "" } },
    );
    expect(lines[0]).toMatch(/^Imported from the Ghost export .* \(as owner@example.com\):$/);
    expect(lines).toContain("  posts: 1 created, 0 updated, 7 skipped");
    const [random] = await ctx.db.select().from(blogPosts).where(eq(blogPosts.slug, "random-thoughts"));
    expect(random?.category).toBe("Fun");
  });

  it("refuses a bad map, an unknown category and a file that is not an export", async () => {
    await expect(importGhost(ctx.db, file, { tagMap: { news: "Food" } })).rejects.toThrow(
      /Tag 'news': 'Food' is not one of the seven categories/,
    );
    await expect(importGhost(ctx.db, file, { defaultCategory: "Nope" })).rejects.toThrow(/--default-category: 'Nope'/);
    const notExport = path.join(path.dirname(file), "other.json");
    fs.writeFileSync(notExport, JSON.stringify({ hello: "world" }));
    await expect(importGhost(ctx.db, notExport)).rejects.toThrow(/is not a Ghost export/);
    await expect(importGhost(ctx.db, path.join(path.dirname(file), "missing.json"))).rejects.toThrow(/No such file/);
    const deep = path.join(path.dirname(file), "deep.json");
    fs.writeFileSync(deep, `{"db": [{"data": {"posts": [${"[".repeat(100_000)}${"]".repeat(100_000)}]}}]}`);
    await expect(importGhost(ctx.db, deep)).rejects.toThrow(/deep\.json is nested more than 64 levels deep/);
    // A file past the size limit is refused before it is read (sparse: its size costs no disk).
    const huge = path.join(path.dirname(file), "huge.json");
    fs.writeFileSync(huge, "");
    fs.truncateSync(huge, FILE_LIMITS.importFile + 1);
    await expect(importGhost(ctx.db, huge)).rejects.toThrow(/huge\.json is larger than 256 MB/);
    fs.rmSync(huge);
  });

  it("skips a post whose Lexical body nests deeper than the limit, with the reason", async () => {
    const nested = (depth: number): object =>
      depth === 0 ? { type: "text", text: "x" } : { type: "paragraph", children: [nested(depth - 1)] };
    const lexical = JSON.stringify({ root: { children: [nested(200)] } });
    const deepPost = path.join(path.dirname(file), "deep-post.json");
    const post = { id: "deep-1", title: "Deep", slug: "deep-post", type: "post", status: "published", lexical };
    fs.writeFileSync(deepPost, JSON.stringify({ db: [{ data: { posts: [post] } }] }));
    const text = (await importGhost(ctx.db, deepPost, { defaultCategory: "Fun" })).lines().join("\n");
    expect(text).toMatch(/its content could not be read \(nested more than 64 levels deep\)/);
  });
});

describe("import without an administrator", () => {
  it("is refused with what to do", async () => {
    // Checked through the domain: any database without an admin answers the same.
    const { createTestDatabase } = await import("../../../tests/helpers/databases");
    const database = await createTestDatabase("pglite");
    try {
      await expect(importSupabase(database.db, FIXTURES)).rejects.toThrow(/No administrator yet: create one first/);
    } finally {
      await database.close();
    }
  });
});
