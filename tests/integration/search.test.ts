import { randomInt } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HIGHLIGHT_START, HIGHLIGHT_STOP } from "~/features/search/highlight";
import { SEARCH_CANDIDATES, SEARCH_WINDOW_GROWTH, searchPosts } from "~/features/search/search.server";
import { newestPublishedFirst } from "~/features/posts/write/posts.server";
import { blogPosts } from "~/server/db/schema.server";
import { describeEachDatabase } from "../helpers/databases";
import { makePost } from "../helpers/factories";
import { startTestServer, type TestServer } from "../helpers/test-server";

/** A made-up word no other post contains (letters only, so the parser keeps it one token). */
function word(): string {
  return `zq${Array.from({ length: 9 }, () => String.fromCharCode(97 + randomInt(26))).join("")}`;
}

describeEachDatabase("search", (ctx) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  describe("searchPosts", () => {
    it("ranks a title match over an excerpt match over a content match, and finds published posts only", async () => {
      const w = word();
      const inContent = await makePost(ctx.db, { content: `A long body that mentions ${w} once.` });
      const inTitle = await makePost(ctx.db, { title: `About ${w}` });
      const inExcerpt = await makePost(ctx.db, { excerpt: `The ${w} excerpt` });
      await makePost(ctx.db, { title: `Draft on ${w}`, published: false });
      const results = await searchPosts(ctx.db, w, 1);
      expect(results.hits.map((h) => h.id)).toEqual([inTitle.id, inExcerpt.id, inContent.id]);
      expect(results.total).toBe(3);
      expect(results.pageCount).toBe(1);
    });

    it("stems English words and marks the matches in the title and the snippet", async () => {
      const w = word();
      await makePost(ctx.db, {
        title: `Running with ${w}`,
        content: `Some filler words first. The ${w} runners were running every morning.`,
      });
      const [hit] = (await searchPosts(ctx.db, `${w} runs`, 1)).hits;
      expect(hit?.titleHighlight).toBe(`${HIGHLIGHT_START}Running${HIGHLIGHT_STOP} with ${HIGHLIGHT_START}${w}${HIGHLIGHT_STOP}`);
      expect(hit?.snippet).toContain(`${HIGHLIGHT_START}running${HIGHLIGHT_STOP}`);
      expect(hit?.snippet).toContain(`${HIGHLIGHT_START}${w}${HIGHLIGHT_STOP}`);
    });

    it("understands web search syntax: phrases and exclusions", async () => {
      const [a, b] = [word(), word()];
      const both = await makePost(ctx.db, { content: `${a} ${b}` });
      const apart = await makePost(ctx.db, { content: `${b} then ${a}` });
      expect((await searchPosts(ctx.db, `"${a} ${b}"`, 1)).hits.map((h) => h.id)).toEqual([both.id]);
      expect((await searchPosts(ctx.db, `${a} -"${a} ${b}"`, 1)).hits.map((h) => h.id)).toEqual([apart.id]);
    });

    it("pages ten at a time, best first, and refuses a page past the last", async () => {
      const w = word();
      for (let i = 0; i < 11; i++) await makePost(ctx.db, { content: `${w} number ${i}`, createdAt: new Date(Date.UTC(2024, 0, 1 + i)) });
      const first = await searchPosts(ctx.db, w, 1);
      const second = await searchPosts(ctx.db, w, 2);
      expect(first.hits).toHaveLength(10);
      expect(second.hits).toHaveLength(1);
      expect(first.pageCount).toBe(2);
      // Equal rank: newest first, so the oldest post is alone on page 2.
      expect(second.hits[0]?.createdAt.toISOString()).toBe("2024-01-01T00:00:00.000Z");
      await expect(searchPosts(ctx.db, w, 3)).rejects.toThrow("Oops! Page not found");
    });

    it("ranks the newest SEARCH_CANDIDATES matches only: an older title match is left out, and the pages stop there", async () => {
      const w = word();
      const old = await makePost(ctx.db, { title: `All about ${w}`, createdAt: new Date(Date.UTC(2001, 0, 1)) });
      for (let i = 0; i < SEARCH_CANDIDATES; i++)
        await makePost(ctx.db, { content: `${w} newer ${i}`, createdAt: new Date(Date.UTC(2020, 0, 1, 0, i)) });
      const results = await searchPosts(ctx.db, w, 1);
      expect(results.total).toBe(SEARCH_CANDIDATES);
      expect(results.pageCount).toBe(SEARCH_CANDIDATES / 10);
      expect(results.hits.map((h) => h.id)).not.toContain(old.id);
      // Once newer matches are fewer, the title match ranks first again.
      const alone = word();
      const titled = await makePost(ctx.db, { title: `All about ${alone}`, createdAt: new Date(Date.UTC(2001, 0, 1)) });
      await makePost(ctx.db, { content: `${alone} newer` });
      expect((await searchPosts(ctx.db, alone, 1)).hits[0]?.id).toBe(titled.id);
    });
    it("answers with a window of the newest posts exactly what the rule says: the newest SEARCH_CANDIDATES matches, ranked", async () => {
      const [common, frequent, some, rare, absent] = [word(), word(), word(), word(), word()];
      // 600 posts newer than any other test's; three share each publication time, a few published
      // ones have none (listed last), one in seven is a draft, and creation runs the other way. The
      // gaps grow (hours apart, then weeks), so that the windows' days span blocks of every size up to
      // 512 days of the search index's day codes (search_era).
      const at = (i: number) => (i % 97 === 5 ? null : new Date(Date.UTC(2090, 0, 1) + Math.floor(i / 3) ** 2 * 3_600_000));
      const posts = Array.from({ length: 600 }, (_, i) => {
        const words = [i % 10 !== 0 ? common : "", i % 5 < 3 ? frequent : "", i % 4 === 0 ? some : "", i % 40 === 0 ? rare : ""].filter(
          Boolean,
        );
        return {
          title: `${i % 11 === 0 ? (words[0] ?? "") : ""} window test ${i}`,
          slug: `window-test-${i}-${common}`,
          excerpt: i % 13 === 0 ? words.join(" ") : "An excerpt",
          content: `${words.join(" ")} filler ${Array.from({ length: i % 4 }, () => words.at(-1) ?? "").join(" ")} end`,
          category: "Fun" as const,
          published: i % 7 !== 3,
          publishedAt: at(i),
          createdAt: new Date(Date.UTC(2090, 0, 1) - i * 60_000),
        };
      });
      await ctx.db.insert(blogPosts).values(posts);
      // Older posts without the words, so that a window of 80 has a wider one (800 published posts).
      const older = Array.from({ length: 300 }, (_, i) => ({
        title: `Older window test ${i}`,
        slug: `window-test-older-${i}-${common}`,
        content: "Nothing to find here",
        category: "Fun" as const,
        published: true,
        publishedAt: new Date(Date.UTC(2089, 0, 1) + i * 3_600_000),
      }));
      await ctx.db.insert(blogPosts).values(older);
      const window = 250;
      // The seeded posts put the window on both sides of SEARCH_CANDIDATES.
      const newestFirst = posts
        .filter((p) => p.published)
        .sort((a, b) => (b.publishedAt?.getTime() ?? -Infinity) - (a.publishedAt?.getTime() ?? -Infinity));
      const inWindow = (w: string, size = window) => newestFirst.slice(0, size).filter((p) => p.content.includes(w)).length;
      expect(inWindow(common)).toBeGreaterThanOrEqual(SEARCH_CANDIDATES);
      expect(inWindow(frequent)).toBeLessThan(SEARCH_CANDIDATES);
      expect(newestFirst.filter((p) => p.content.includes(frequent)).length).toBeGreaterThan(SEARCH_CANDIDATES);
      // A window of 25 holds too few of `common` but enough for the wider one (ten times as wide) to
      // be searched, which holds them all; a window of 80 holds enough of `some` for the wider one,
      // which holds too few: then the older posts are searched too.
      const wide = SEARCH_WINDOW_GROWTH;
      expect(inWindow(common, 25)).toBeGreaterThanOrEqual(SEARCH_CANDIDATES / wide);
      expect(inWindow(common, 25)).toBeLessThan(SEARCH_CANDIDATES);
      expect(inWindow(common, 25 * wide)).toBeGreaterThanOrEqual(SEARCH_CANDIDATES);
      expect(inWindow(some, 80)).toBeGreaterThanOrEqual(SEARCH_CANDIDATES / wide);
      expect(inWindow(some, 80 * wide)).toBeLessThan(SEARCH_CANDIDATES);

      // The rule in one plain statement: the newest SEARCH_CANDIDATES published matches, best rank first.
      const rule = async (q: string) => {
        const tsquery = sql`websearch_to_tsquery('english', ${q})`;
        const newest = ctx.db
          .select({ id: blogPosts.id, publishedAt: blogPosts.publishedAt, vector: blogPosts.searchVector })
          .from(blogPosts)
          .where(and(sql`${blogPosts.searchVector} @@ ${tsquery}`, eq(blogPosts.published, true)))
          .orderBy(newestPublishedFirst())
          .limit(SEARCH_CANDIDATES)
          .as("newest");
        const rows = await ctx.db
          .select({ id: newest.id })
          .from(newest)
          .orderBy(sql`ts_rank_cd(${newest.vector}, ${tsquery}) desc, ${newest.publishedAt} desc nulls last, ${newest.id} desc`);
        return rows.map((r) => r.id);
      };
      const queries = [
        common,
        frequent,
        some,
        rare,
        absent,
        `"${common} ${frequent}"`,
        // Phrases the word-pair index narrows (three words, words found together but never in this order), and one it must not.
        `"${common} ${frequent} ${some}"`,
        `"${frequent} ${common}"`,
        `"${rare} filler"`,
        `"${common} ${frequent}" or ${rare}`,
        `${common} -${some}`,
        `${frequent} or ${rare}`,
        `${frequent} ${some}`,
      ];
      for (const q of queries) {
        const expected = await rule(q);
        for (const size of [window, 1, 25, 80, 100_000, null]) {
          const first = await searchPosts(ctx.db, q, 1, size);
          const ids = [...first.hits.map((h) => h.id)];
          for (let page = 2; page <= first.pageCount; page++) ids.push(...(await searchPosts(ctx.db, q, page, size)).hits.map((h) => h.id));
          expect(ids, `${q} with a window of ${size}`).toEqual(expected);
          expect(first.total).toBe(expected.length);
          await expect(searchPosts(ctx.db, q, first.pageCount + 1, size)).rejects.toThrow("Oops! Page not found");
        }
      }
    });
  });

  it("tiles a range of days exactly with search_era_range's codes: a post's search_era codes share one with it only when its day is inside", async () => {
    const DAY = 86_400_000;
    // Instants from 1900 to 2200 at any time of day, ranges from one day to decades; each range's
    // ends, the days just outside them, and infinity as the end and as a post's date.
    const instant = () => Date.UTC(1900, 0, 1) + randomInt(110_000) * DAY + randomInt(DAY);
    const cases: { post: string; from: string; until: string; inside: boolean }[] = [];
    const day = (ms: number) => Math.floor(ms / DAY);
    const iso = (ms: number) => new Date(ms).toISOString();
    for (let i = 0; i < 300; i++) {
      const from = instant();
      const until = from + randomInt(10 ** randomInt(1, 5)) * DAY + randomInt(DAY);
      const open = i % 10 === 0;
      const posts = [instant(), from, until, from - DAY, until + DAY, day(from) * DAY, day(until) * DAY + DAY - 1, day(until) * DAY + DAY];
      for (const post of posts)
        cases.push({
          post: iso(post),
          from: iso(from),
          until: open ? "infinity" : iso(until),
          inside: day(post) >= day(from) && (open || day(post) <= day(until)),
        });
      cases.push({ post: "infinity", from: iso(from), until: open ? "infinity" : iso(until), inside: open });
    }
    const [result] = await ctx.db
      .select({
        wrong: sql<
          string[] | null
        >`array_agg(c.post || ' in ' || c."from" || ' – ' || c.until || ': ' || c.inside) filter (where (search_era(c.post::timestamptz) && search_era_range(c."from"::timestamptz, c.until::timestamptz)) <> c.inside)`,
        inside: sql<number>`count(*) filter (where c.inside)`.mapWith(Number),
      })
      .from(sql`jsonb_to_recordset(${JSON.stringify(cases)}::jsonb) as c(post text, "from" text, until text, inside boolean)`);
    expect(result?.wrong ?? []).toEqual([]);
    expect(result?.inside).toBeGreaterThan(cases.length / 3);
  });

  describe("GET /search", () => {
    it("shows ranked results with <mark> highlights and escapes the post's text", async () => {
      const w = word();
      await makePost(ctx.db, { title: `Guide to ${w}`, content: `<script>alert(1)</script> The ${w} <img src=x onerror=alert(2)> trick.` });
      const response = await server.fetch(`/search?q=${w}`);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain(`Guide to <mark class=`);
      expect(html).toMatch(new RegExp(`<mark[^>]*>${w}</mark>`));
      expect(html).not.toContain("<script>alert(1)");
      expect(html).not.toContain("<img src=x");
      expect(html).not.toContain(HIGHLIGHT_START);
    });

    it("links Previous results / More results across pages, and 404s a page past the last", async () => {
      const w = word();
      for (let i = 0; i < 11; i++) await makePost(ctx.db, { content: `${w} item ${i}` });
      const first = await (await server.fetch(`/search?q=${w}`)).text();
      expect(first).toContain(`href="/search?q=${w}&amp;page=2"`);
      expect(first).toContain("More results");
      const second = await (await server.fetch(`/search?q=${w}&page=2`)).text();
      expect(second).toContain(`href="/search?q=${w}"`);
      expect(second).toContain("Previous results");
      expect((await server.fetch(`/search?q=${w}&page=3`)).status).toBe(404);
    });

    it("answers bad input with the empty state, never an error", async () => {
      const queries = [
        "",
        "   ",
        "x".repeat(1000),
        "!!! ??? ... ---",
        "'; DROP TABLE blog_posts; --",
        "' OR ''='",
        "a & b | !(c) <-> :* \\",
        '"unbalanced',
        "the",
        "%00",
      ];
      for (const q of queries) {
        const response = await server.fetch(`/search?q=${encodeURIComponent(q)}`);
        expect(response.status, JSON.stringify(q)).toBe(200);
        const html = await response.text();
        expect(html, JSON.stringify(q)).toMatch(/No results for &quot;|Type a few words to search the posts/);
        expect(html).toContain('href="/7fs/Faith"');
      }
      const noQuery = await (await server.fetch("/search")).text();
      expect(noQuery).toContain("Type a few words to search the posts");
      expect((await server.fetch("/search?q=%ZZ")).status).toBeLessThan(500);
      expect((await server.fetch("/search?q=%ED%A0%80")).status).toBe(200);
      // A NUL anywhere in a URL is refused app-wide with a 400 before any route runs.
      expect((await server.fetch("/search?q=%00nul")).status).toBeLessThan(500);
      // The SQL-looking queries were only words: the posts are all still there.
      const w = word();
      await makePost(ctx.db, { title: w });
      expect((await searchPosts(ctx.db, w, 1)).total).toBe(1);
    });

    it("says 'No results for \"…\"' when nothing matches", async () => {
      const w = word();
      const html = await (await server.fetch(`/search?q=${w}`)).text();
      expect(html).toContain(`No results for &quot;${w}&quot;`);
    });

    it("has a search field named 'Search' in the top bar that submits to /search with GET", async () => {
      const html = await (await server.fetch("/about")).text();
      expect(html).toMatch(/<form[^>]*method="get"[^>]*action="\/search"|<form[^>]*action="\/search"[^>]*method="get"/);
      expect(html).toContain('aria-label="Search"');
      expect(html).toContain('name="q"');
    });
  });
});
