// The posts' sitemap files through the production server, with two posts per file on average so
// that a few dozen posts make many files: every published post in exactly one file, none of the
// drafts, and the 404 past the last file (app/features/pages/sitemap.ts, app/routes/sitemaps.ts).
import { afterAll, beforeAll, expect, it } from "vitest";
import { postPath } from "~/lib/categories";
import { describeEachDatabase } from "../helpers/databases";
import { makePost } from "../helpers/factories";
import { postIdsOnFileEdges } from "../helpers/sitemap";
import { startTestServer, type TestServer } from "../helpers/test-server";

const SITE = "https://portfolio.example.test";
process.env.PUBLIC_URL = SITE;
process.env.SITEMAP_POSTS_PER_FILE = "2";
process.env.LOG_LEVEL = "silent";

describeEachDatabase("sitemap files", (ctx) => {
  let server: TestServer;
  const published: string[] = [];
  const drafts: string[] = [];
  beforeAll(async () => {
    const ids = postIdsOnFileEdges(16);
    for (let i = 0; i < ids.length + 20; i++) {
      const post = await makePost(ctx.db, { id: ids[i], published: i % 6 !== 5, category: i % 2 ? "Faith" : "Fun" });
      (post.published ? published : drafts).push(`${SITE}${postPath(post.category, post.slug)}`);
    }
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("lists the files of two posts each on average, which hold every published post once", async () => {
    const index = await (await server.fetch("/sitemap.xml")).text();
    const files = [...index.matchAll(/<sitemap><loc>([^<]+)<\/loc>/g)].map((m) => (m[1] ?? "").replace(SITE, ""));
    // 44 published posts, 2 per file on average at most: 32 files, the fewest that is a power of two.
    expect(published).toHaveLength(44);
    expect(files).toEqual(["/sitemaps/pages.xml", ...Array.from({ length: 32 }, (_, i) => `/sitemaps/posts-${i + 1}.xml`)]);
    const locs: string[] = [];
    for (const file of files.slice(1)) {
      const response = await server.fetch(file);
      expect(response.status, file).toBe(200);
      expect(response.headers.get("content-type")).toContain("application/xml");
      const xml = await response.text();
      expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">\n/);
      for (const [, loc = "", lastmod = ""] of xml.matchAll(/<url><loc>([^<]+)<\/loc><lastmod>([^<]+)<\/lastmod><\/url>/g)) {
        expect(lastmod).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        locs.push(loc);
      }
    }
    // A post on a file's edge left out of both files, or listed in both, fails here.
    expect(locs.toSorted()).toEqual(published.toSorted());
    for (const draft of drafts) expect(locs).not.toContain(draft);
  });

  it("answers 404 with the way to the list for a file past the last or not a posts' file", async () => {
    for (const path of ["/sitemaps/posts-33.xml", "/sitemaps/posts-0.xml", "/sitemaps/posts-01.xml", "/sitemaps/other.xml"]) {
      const response = await server.fetch(path);
      expect(response.status, path).toBe(404);
      expect(await response.text()).toBe("There is no such sitemap. The list of sitemaps is at /sitemap.xml.\n");
    }
  });
});
