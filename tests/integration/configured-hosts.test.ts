import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appSettings, mailOutbox } from "~/server/db/schema.server";
import { startContentVersion, stopContentVersion } from "~/server/content-version.server";
import { resetEnvForTests } from "~/server/env.server";
import { easyVerificationToken } from "../helpers/contact";
import { describeEachDatabase } from "../helpers/databases";
import { makeUser } from "../helpers/factories";
import { canonicalOf, rawRequest } from "../helpers/raw-http";
import { useSmtpServer } from "../helpers/smtp-suite";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Only the site's own host names are answered (docs/decisions/0073-configured-hosts.md): a request
 * naming another host — in Host, or in X-Forwarded-Host behind a trusted proxy — gets 421 before
 * anything is rendered or cached, and every absolute link (canonical, og:url, RSS, sitemap, robots,
 * emails) starts with the configured address, never with what a request said. Raw node:http, so the
 * Host header is exactly the forged one.
 */

/** Every absolute http(s) address in a page or feed, by origin. */
const originsIn = (text: string) => new Set([...text.matchAll(/https?:\/\/[a-z0-9.[\]:-]+/gi)].map((m) => m[0].toLowerCase()));

const saved = { ...process.env };
afterAll(() => {
  process.env = saved;
  resetEnvForTests();
});

describe("with PUBLIC_URL set", () => {
  beforeAll(() => {
    process.env.PUBLIC_URL = "https://site.example";
    delete process.env.TRUST_PROXY;
    process.env.LOG_LEVEL = "silent";
    resetEnvForTests();
  });

  describeEachDatabase("configured hosts", (ctx) => {
    useSmtpServer();
    let server: TestServer;
    beforeAll(async () => {
      // The page cache is on only while the content version is followed (as start-up does).
      await startContentVersion();
      server = await startTestServer({ hitPathFirst: true });
    });
    afterAll(async () => {
      await server.close();
      await stopContentVersion();
    });

    it("answers its own host name and loopback names, with links only to the configured address", async () => {
      for (const host of ["site.example", "SITE.example:8443", "127.0.0.1", "localhost:3000"]) {
        const page = await rawRequest(server.url, "/about", { host });
        expect(page.status, host).toBe(200);
        expect(canonicalOf(page.body), host).toBe("https://site.example/about");
      }
    });

    it("answers another host name 421 with a plain sentence naming the site's address, and never caches it", async () => {
      // Rendered and stored for the real host first: a hit path that ignored the host would serve it.
      expect((await rawRequest(server.url, "/", { host: "site.example" })).status).toBe(200);
      expect((await rawRequest(server.url, "/", { host: "site.example" })).headers["x-cache"]).toBe("HIT");
      for (let round = 0; round < 3; round++) {
        for (const path of ["/", "/about", "/rss.xml", "/sitemap.xml", "/robots.txt", "/7fs/Faith"]) {
          const answer = await rawRequest(server.url, path, { host: "evil.example" });
          expect(answer.status, path).toBe(421);
          expect(answer.headers["content-type"]).toMatch(/^text\/plain/);
          expect(answer.headers["cache-control"]).toBe("no-store");
          expect(answer.headers["x-cache"]).toBeUndefined();
          expect(answer.body).toBe(
            "This site does not answer at the address you used. Its address is https://site.example. If the address you used is the site's, set PUBLIC_URL (or the Site address in the admin's Settings) to it.",
          );
        }
      }
      // The real host's page is untouched by the forged requests.
      const page = await rawRequest(server.url, "/", { host: "site.example" });
      expect(page.headers["x-cache"]).toBe("HIT");
      expect(page.body).not.toContain("evil.example");
      expect(canonicalOf(page.body)).toBe("https://site.example/");
    });

    it("ignores X-Forwarded-Host without TRUST_PROXY: Host decides, and links stay the configured address", async () => {
      const page = await rawRequest(server.url, "/contact", { host: "site.example", "x-forwarded-host": "evil.example" });
      expect(page.status).toBe(200);
      expect(page.body).not.toContain("evil.example");
      expect(await rawRequest(server.url, "/contact", { host: "evil.example", "x-forwarded-host": "site.example" })).toMatchObject({
        status: 421,
      });
    });

    it("answers API and form requests for another host 421 (JSON under /api) before they act: no reset mail goes out", async () => {
      const api = await rawRequest(
        server.url,
        "/api/auth/login",
        { host: "evil.example", "content-type": "application/json" },
        "POST",
        "{}",
      );
      expect(api.status).toBe(421);
      expect(JSON.parse(api.body)).toEqual({ error: expect.stringContaining("https://site.example") });
      const member = await makeUser(ctx.db);
      const forgot = async (host: string) =>
        rawRequest(
          server.url,
          "/auth",
          { host, "content-type": "application/x-www-form-urlencoded" },
          "POST",
          new URLSearchParams({ intent: "forgot", email: member.email, verificationToken: await easyVerificationToken(ctx.db) }).toString(),
        );
      const queued = () => ctx.db.select({ id: mailOutbox.id }).from(mailOutbox).where(eq(mailOutbox.recipient, member.email));
      expect((await forgot("evil.example")).status).toBe(421);
      expect(await queued()).toHaveLength(0);
      // The same request at the site's own host does send one (the refusal above is the host's doing).
      expect((await forgot("site.example")).status).toBe(302);
      expect(await queued()).toHaveLength(1);
    });

    it("feeds, sitemaps and robots.txt reached on a loopback name link only to the configured address", async () => {
      for (const path of ["/rss.xml", "/sitemap.xml", "/sitemaps/pages.xml", "/robots.txt", "/7fs/Faith/rss.xml"]) {
        const answer = await rawRequest(server.url, path, { host: "127.0.0.1" });
        expect(answer.status, path).toBe(200);
        const origins = [...originsIn(answer.body)].filter((origin) => !/w3\.org|purl\.org|sitemaps\.org|rssboard|webfeeds/.test(origin));
        expect(origins, path).toEqual(["https://site.example"]);
      }
    });

    it("answers the operations endpoints at any host (orchestrators probe by address)", async () => {
      expect((await rawRequest(server.url, "/healthz", { host: "10.1.2.3:3000" })).status).toBe(200);
    });

    it("lets the fediverse's actor, inbox and WebFinger answer at an earlier site address after a move, and nothing else", async () => {
      const history = {
        actor: "https://site.example/ap/actor",
        handle: "blog",
        previousActors: ["https://old.example/ap/actor"],
        previousHandles: [],
      };
      await ctx.db.insert(appSettings).values({ key: "fediverse_history", value: JSON.stringify(history) });
      try {
        const actor = await rawRequest(server.url, "/ap/actor", { host: "old.example", accept: "application/activity+json" });
        expect(actor.status).toBe(200);
        expect(JSON.parse(actor.body)).toMatchObject({ id: "https://old.example/ap/actor", movedTo: "https://site.example/ap/actor" });
        const finger = await rawRequest(server.url, "/.well-known/webfinger?resource=acct:blog@old.example", { host: "old.example" });
        expect(finger.status).toBe(200);
        expect(JSON.parse(finger.body)).toMatchObject({ subject: "acct:blog@site.example" });
        for (const path of ["/about", "/ap/outbox", "/api/health-of-nothing"])
          expect((await rawRequest(server.url, path, { host: "old.example" })).status, path).toBe(421);
        expect((await rawRequest(server.url, "/ap/actor", { host: "never.example" })).status).toBe(421);
      } finally {
        await ctx.db.delete(appSettings).where(eq(appSettings.key, "fediverse_history"));
      }
    });
  });
});
