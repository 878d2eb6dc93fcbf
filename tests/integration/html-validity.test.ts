import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import ogs from "open-graph-scraper";
import { z } from "zod";
import { blogMedia } from "~/server/db/schema.server";
import { describeEachDatabase } from "../helpers/databases";
import { startFeedFixtureServer, type FeedFixtureServer } from "../helpers/feed-fixture-server";
import { makeContactMessage, makePost, makeProject, signedInAs } from "../helpers/factories";
import { BROWSER_UA, startTestServer, type TestServer } from "../helpers/test-server";
import { FIXED_PAGES } from "../helpers/pages";
import { routePatterns } from "../helpers/route-table";
import { tempDir } from "../helpers/temp-dir";

// The fixture servers listen on 127.0.0.1, which the outbound guard refuses unless this is set.
process.env.OUTBOUND_ALLOW_PRIVATE = "true";

/**
 * The server-rendered HTML of every screen, as a browser receives it (streamed, feeds included),
 * checked by the Nu HTML Checker (npm vnu-jar, needs `java` on the PATH). One JVM run for all pages.
 */
const VNU_JAR = path.resolve("node_modules/vnu-jar/build/dist/vnu.jar");

const vnuReport = z.object({
  messages: z.array(
    z.object({
      type: z.string(),
      url: z.string().optional(),
      message: z.string(),
      extract: z.string().optional(),
      subType: z.string().optional(),
    }),
  ),
});

function runVnu(files: string[]): Promise<z.infer<typeof vnuReport>["messages"]> {
  return new Promise((resolve, reject) => {
    // Exit status 1 just means "errors found"; the JSON report on stderr says which.
    execFile(
      "java",
      ["-Xss2m", "-jar", VNU_JAR, "--errors-only", "--format", "json", ...files],
      { maxBuffer: 16 * 1024 * 1024 },
      (err, _stdout, stderr) => {
        if (err && (err as NodeJS.ErrnoException).code === "ENOENT")
          return reject(new Error("java is not installed: the Nu HTML Checker needs it"));
        try {
          resolve(vnuReport.parse(JSON.parse(stderr)).messages);
        } catch (parseError) {
          reject(new Error(`vnu gave no JSON report: ${stderr.slice(0, 500)}`, { cause: parseError }));
        }
      },
    );
  });
}

let fixtures: FeedFixtureServer;
beforeAll(async () => {
  fixtures = await startFeedFixtureServer();
  // All three Featured Work feed cards render: RSS, Atom and an OpenGraph-only page.
  process.env.SUBSTACK_URL = `${fixtures.url}/`;
  process.env.TSP_BLOG_URL = `${fixtures.url}/og`;
  process.env.TSP_KB_URL = `${fixtures.url}/atom`;
  // Generous: no fixture here hangs, and a loaded CI machine must not drop a card.
  process.env.FEED_TIMEOUT_MS = "8000";
  process.env.PUBLIC_URL = "https://portfolio.example.test";
});
afterAll(() => fixtures.close());

describeEachDatabase("server-rendered HTML is valid (Nu HTML Checker)", (ctx) => {
  let server: TestServer | undefined;
  const dir = tempDir("vnu-pages-");
  beforeAll(async () => {
    if (ctx.kind !== "pglite") return;
    const post = await makePost(ctx.db, {
      title: "Valid <Markup> & Friends",
      slug: "valid-markup",
      content: "First paragraph.\n\nSecond paragraph with a link-like text https://example.test.",
      excerpt: "An excerpt.",
      featuredImageUrl: "/images/posts/faith-800.webp",
      category: "Faith",
      featured: true,
    });
    await ctx.db.insert(blogMedia).values([
      {
        postId: post.id,
        mediaType: "youtube",
        mediaUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        caption: "A video",
        displayOrder: 1,
      },
      { postId: post.id, mediaType: "image", mediaUrl: "/images/posts/faith-800.webp", caption: "An image", displayOrder: 2 },
    ]);
    // No featured image (a generated share image) and enough headings for a table of contents.
    await makePost(ctx.db, {
      title: "Sections & Contents",
      slug: "with-sections",
      content: "Intro.\n\n# Why it matters\n\nText.\n\n## The details\n\nText.\n\n# What's next\n\nText.",
      category: "Faith",
    });
    await makeProject(ctx.db, {
      title: "Launch Kit",
      description: "A web project",
      displayOrder: 1,
      featured: true,
      imageUrl: "/images/projects/launch-kit-800.webp",
      url: "https://launch.example.test",
    });
    await makeProject(ctx.db, { title: "No Image Web", description: "Another", displayOrder: 2 });
    await makeProject(ctx.db, { title: "An Other Project", description: "x", type: "other", displayOrder: 3 });
    await makeContactMessage(ctx.db, { name: "Ada <b>", email: "ada@example.test", message: "Hello & welcome" });
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const anonymous = [
    ...FIXED_PAGES,
    "/7fs/Faith",
    "/7fs/Fun",
    "/7fs/Faith/valid-markup",
    "/7fs/Faith/with-sections",
    "/7fs/Faith/missing-post",
    "/no-such-page",
    "/search",
    "/search?q=paragraph",
    "/search?q=nothing-matches-this",
    "/book",
    "/subscribe",
  ];
  const signedIn = [
    "/",
    "/7fs/Faith/valid-markup",
    "/7fs/Faith/new",
    "/7fs/Faith/valid-markup/edit",
    "/admin/projects?new",
    // Every admin screen: a new one is checked the day it is added.
    ...routePatterns().filter((pattern) => pattern.startsWith("/admin") && !/[:*.]/.test(pattern)),
  ];

  // The checker runs once (JVM start ~3 s); the second database run adds nothing to what is checked.
  it.runIf(ctx.kind === "pglite")("every public and admin screen passes with no errors", async () => {
    const admin = await signedInAs(ctx.db, "admin");
    const files: string[] = [];
    const save = async (label: string, pagePath: string, cookie?: string) => {
      if (!server) throw new Error("no server");
      const response = await server.fetch(pagePath, { headers: { "user-agent": BROWSER_UA, ...(cookie ? { cookie } : {}) } });
      expect(response.status, pagePath).toBe(/missing|no-such/.test(pagePath) ? 404 : 200);
      expect(response.headers.get("content-type"), pagePath).toContain("text/html");
      const html = await response.text();
      const file = path.join(dir, `${label}${pagePath.replace(/[^a-z0-9]+/gi, "_")}.html`);
      fs.writeFileSync(file, html);
      files.push(file);
      return html;
    };
    for (const pagePath of anonymous) await save("anon", pagePath);
    for (const pagePath of signedIn) await save("admin", pagePath, admin.cookie);
    // The streamed home page really carries the three feed cards (RSS, Atom, OpenGraph page).
    const home = fs.readFileSync(files[0] ?? "", "utf8");
    for (const title of ["Shipping Calm: A Newsletter &amp; More", "Five Risk Registers That Work", "Team Playbooks &amp; Templates"])
      expect(home).toContain(title);
    // Every image of a public page reserves its box (width and height), so nothing shifts as images arrive.
    for (const file of files.filter((f) => path.basename(f).startsWith("anon"))) {
      for (const tag of fs.readFileSync(file, "utf8").match(/<img\b[^>]*>/g) ?? []) {
        expect(tag, path.basename(file)).toMatch(/\swidth="\d+"/);
        expect(tag, path.basename(file)).toMatch(/\sheight="\d+"/);
      }
    }
    // Proof the checker is awake: a known-bad document must be reported.
    const bad = path.join(dir, "known-bad.html");
    fs.writeFileSync(bad, "<!DOCTYPE html><html lang=en><head><title>x</title></head><body><ul><div>no</div></ul></body></html>");

    const messages = await runVnu([...files, bad]);
    const errors = messages.filter((m) => m.type === "error" || m.subType === "fatal");
    expect(errors.some((m) => m.url?.endsWith("known-bad.html"))).toBe(true);
    const real = errors
      .filter((m) => !m.url?.endsWith("known-bad.html"))
      .map((m) => `${path.basename(m.url ?? "?")}: ${m.message} [${m.extract ?? ""}]`);
    expect(real).toEqual([]);
  });

  it.runIf(ctx.kind === "pglite")(
    "every indexable page has a canonical URL and absolute Open Graph / Twitter tags (open-graph-scraper)",
    async () => {
      const base = "https://portfolio.example.test";
      for (const pagePath of [...FIXED_PAGES, "/7fs/Faith", "/7fs/Faith/valid-markup", "/7fs/Faith/with-sections", "/search"]) {
        if (!server) throw new Error("no server");
        const html = await (await server.fetch(pagePath, { headers: { "user-agent": BROWSER_UA } })).text();
        const { result } = await ogs({ html });
        const canonical = /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];
        expect(canonical, pagePath).toBe(`${base}${pagePath === "/" ? "/" : pagePath}`);
        expect(result.ogUrl, pagePath).toBe(canonical);
        expect(result.ogTitle, pagePath).toBeTruthy();
        expect(result.ogDescription, pagePath).toBeTruthy();
        expect(result.ogType, pagePath).toBe(pagePath.split("/").length === 4 ? "article" : "website");
        expect(result.twitterCard, pagePath).toBe("summary_large_image");
        const images = [...(result.ogImage ?? []), ...(result.twitterImage ?? [])].map((image) => image.url);
        expect(images.length, pagePath).toBe(2);
        for (const image of images) expect(image, pagePath).toMatch(new RegExp(`^${base}/`));
        // The card image is a file the production server serves (server.js serves build/client statically),
        // or the page's generated share image, which states its type and size.
        const imagePath = new URL(images[0] ?? "").pathname;
        if (imagePath.startsWith("/share-images/")) {
          const card = await server.fetch(imagePath);
          expect(card.status, imagePath).toBe(200);
          expect(card.headers.get("content-type"), imagePath).toBe("image/png");
          expect(result.ogImage?.[0], pagePath).toMatchObject({ type: "image/png", width: "1200", height: "630" });
        } else {
          expect(fs.existsSync(path.join("build/client", imagePath)), imagePath).toBe(true);
        }
      }
      if (!server) throw new Error("no server");
      // Icons: linked from every page and shipped (a missing /favicon.ico is a console error in every browser).
      const about = await (await server.fetch("/about")).text();
      const icons = [...about.matchAll(/<link rel="(?:icon|apple-touch-icon)" href="([^"]+)"/g)].map((m) => m[1] ?? "");
      expect(icons).toEqual(["/favicon.ico", "/favicon.svg", "/apple-touch-icon.png"]);
      for (const icon of icons) expect(fs.existsSync(path.join("build/client", icon)), icon).toBe(true);
      // The post uses its own featured image.
      const post = await (await server.fetch("/7fs/Faith/valid-markup")).text();
      expect((await ogs({ html: post })).result.ogImage?.[0]?.url).toBe(`${base}/images/posts/faith-800.webp`);
      // The category page and a post without a featured image use their generated share images.
      const sections = await (await server.fetch("/7fs/Faith/with-sections")).text();
      expect((await ogs({ html: sections })).result.ogImage?.[0]?.url).toMatch(/\/share-images\/post\/[0-9a-f-]{36}\/[a-f0-9]{24}\.png$/);
      const category = await (await server.fetch("/7fs/Faith")).text();
      expect((await ogs({ html: category })).result.ogImage?.[0]?.url).toMatch(/\/share-images\/category\/Faith\/[a-f0-9]{24}\.png$/);
    },
  );
});
