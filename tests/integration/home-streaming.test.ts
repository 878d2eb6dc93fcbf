import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "../helpers/databases";
import { makePost, makeProject } from "../helpers/factories";
import {
  GATED_TITLE,
  pointFeedEnvAtFixtures,
  pointFeedsAtFixtures,
  startFeedFixtureServer,
  type FeedFixtureServer,
} from "../helpers/feed-fixture-server";
import { BROWSER_UA, startTestServer, type TestServer } from "../helpers/test-server";

/**
 * The home page streams: what the database has is sent before an external feed answers, and the feed's
 * card follows when it does. The slow feed is a gate the test opens, and the feed timeout is the longest
 * allowed, so the order is all that is checked, never how long anything took (public-site.test.ts checks
 * the timeout).
 */
/** Only when the page does not stream: the gate is then opened by this fallback, so the test fails on its assertion rather than its timeout. */
const FALLBACK_OPEN_MS = 20_000;

let fixtures: FeedFixtureServer;
beforeAll(async () => {
  fixtures = await startFeedFixtureServer();
  pointFeedEnvAtFixtures(fixtures, 30_000);
});
afterAll(() => fixtures.close());

describeEachDatabase("home page streaming", (ctx) => {
  let server: TestServer;
  beforeAll(async () => {
    await makePost(ctx.db, { title: "Streamed Featured Post", slug: "streamed-featured", category: "Finance", featured: true });
    await makeProject(ctx.db, { title: "Streamed Web", featured: true });
    await pointFeedsAtFixtures(ctx.db, fixtures, `/gated?gate=stream-${ctx.kind}`);
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("streams the home page: its content before a feed that is still loading, the feed's card when it answers", async () => {
    const gate = fixtures.gate(`stream-${ctx.kind}`);
    let openedByFallback = false;
    let fallback: NodeJS.Timeout | undefined;
    void gate.reached().then(() => {
      fallback = setTimeout(() => {
        openedByFallback = true;
        gate.open();
      }, FALLBACK_OPEN_MS);
    });
    try {
      const response = await server.fetch("/", { headers: { "user-agent": BROWSER_UA } });
      expect(response.status).toBe(200);
      const reader = response.body?.getReader();
      if (!reader) throw new Error("no body");
      const decoder = new TextDecoder();
      let html = "";
      const readUntil = async (marker: string | null) => {
        while (marker === null || !html.includes(marker)) {
          const { done, value } = await reader.read();
          if (done) return;
          html += decoder.decode(value, { stream: true });
        }
      };

      await readUntil("Featured Work");
      // The page's own content came while the blog feed was held: nothing had released it.
      expect(openedByFallback, "the page waited for the feed instead of streaming").toBe(false);
      expect(html).toContain("Streamed Featured Post");
      expect(html).toContain("Streamed Web");
      expect(html).not.toContain(GATED_TITLE);
      await gate.reached();

      gate.open();
      await readUntil(null);
      // The feed cards followed, the one just released included.
      expect(html).toContain(GATED_TITLE);
      expect(html).toContain("Shipping Calm: A Newsletter &amp; More");
      expect(html).toContain("Five Risk Registers That Work");
      expect(html.indexOf(GATED_TITLE)).toBeGreaterThan(html.indexOf("Featured Work"));
      expect(openedByFallback).toBe(false);
    } finally {
      clearTimeout(fallback);
      gate.open();
    }
  });
});
