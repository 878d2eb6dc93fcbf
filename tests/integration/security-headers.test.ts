import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { SITE_SETTINGS_KEY } from "~/features/settings/settings.server";
import { bumpContentVersion } from "~/server/content-version.server";
import { appSettings } from "~/server/db/schema.server";
import { waitFor } from "../helpers/contact";
import { describeEachDatabase } from "../helpers/databases";
import { useSmtpServer } from "../helpers/smtp-suite";
import { makePost, signedInAs } from "../helpers/factories";
import { startTestServer, type TestServer } from "../helpers/test-server";

/** The security headers (server/security-headers.ts) as the production build serves them, behind https. */
const saved = { ...process.env };
beforeAll(() => {
  process.env.PUBLIC_URL = "https://portfolio.example";
  process.env.LOG_LEVEL = "silent";
});
afterAll(() => {
  process.env = saved;
});

describeEachDatabase("security headers", (ctx) => {
  // Mail is set up, as on a working site: the footer then carries the subscribe form and its scripts.
  useSmtpServer();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const nonceOf = (csp: string) => /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];

  it("a page: CSP with a fresh nonce on each inline script, HSTS, COOP, Permissions-Policy, one nosniff", async () => {
    const [first, second] = [await server.fetch("/"), await server.fetch("/")];
    const csp = first.headers.get("content-security-policy") ?? "";
    for (const directive of [
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'self'",
      "upgrade-insecure-requests",
      "script-src-attr 'none'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).toMatch(
      /frame-src https:\/\/www\.youtube\.com https:\/\/www\.youtube-nocookie\.com https:\/\/player\.vimeo\.com https:\/\/calendly\.com(;|$)/,
    );
    expect(csp).not.toContain("challenges.cloudflare.com");
    const nonce = nonceOf(csp);
    expect(nonce).toBeTruthy();
    expect(nonceOf(second.headers.get("content-security-policy") ?? "")).not.toBe(nonce);
    const html = await first.text();
    const inline = (html.match(/<script\b[^>]*>/g) ?? []).filter((tag) => !/\ssrc=/.test(tag));
    expect(inline.length).toBeGreaterThan(2);
    for (const tag of inline) expect(tag).toContain(`nonce="${nonce}"`);
    expect(first.headers.get("strict-transport-security")).toBe("max-age=63072000");
    expect(first.headers.get("cross-origin-opener-policy")).toBe("same-origin");
    expect(first.headers.get("permissions-policy")).toContain("camera=()");
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("x-frame-options")).toBe("SAMEORIGIN");
  });

  it("a client cannot choose the nonce", async () => {
    const response = await server.fetch("/", { headers: { "x-app-csp-nonce": "attacker" } });
    expect(response.headers.get("content-security-policy")).not.toContain("attacker");
    expect(await response.text()).not.toContain('nonce="attacker"');
  });

  it("a post, the feed, an API answer and /admin carry the same headers, nosniff once", async () => {
    const post = await makePost(ctx.db, { category: "Faith" });
    const admin = await signedInAs(ctx.db, "admin");
    const responses = [
      await server.fetch(`/7fs/Faith/${post.slug}`),
      await server.fetch("/rss.xml"),
      await server.fetch("/api/verification/challenge"),
      await server.fetch("/admin", { headers: { cookie: admin.cookie } }),
    ];
    for (const response of responses) {
      expect(response.status).toBe(200);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(nonceOf(response.headers.get("content-security-policy") ?? "")).toBeTruthy();
      expect(response.headers.get("strict-transport-security")).toBeTruthy();
    }
  });

  it("a stored scheduling address whose host holds ';' or ',' leaves the policy strict, never the headers off", async () => {
    // Written as an older version (or a direct database edit) could have stored it: the form refuses it now.
    for (const schedulingUrl of ["https://cal;x.example/jo", "https://cal,x.example/jo"]) {
      const value = JSON.stringify({ siteName: "Strict Headers Site", schedulingUrl });
      await ctx.db.transaction(async (tx) => {
        await tx
          .insert(appSettings)
          .values({ key: SITE_SETTINGS_KEY, value })
          .onConflictDoUpdate({ target: appSettings.key, set: { value } });
        await bumpContentVersion(tx);
      });
      // The settings are re-read once the instance sees the new version: wait until the page shows them.
      await waitFor(async () => (await (await server.fetch("/")).text()).includes("Strict Headers Site"), 5_000, "the new settings");
      for (const path of ["/", "/rss.xml", "/api/verification/challenge"]) {
        const response = await server.fetch(path);
        const csp = response.headers.get("content-security-policy") ?? "";
        expect(csp, `${schedulingUrl} ${path}`).toContain("frame-ancestors 'self'");
        expect(csp).not.toMatch(/cal[;,]x/);
        expect(response.headers.get("x-frame-options")).toBe("SAMEORIGIN");
        expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      }
    }
    await ctx.db.transaction(async (tx) => {
      await tx.delete(appSettings).where(eq(appSettings.key, SITE_SETTINGS_KEY));
      await bumpContentVersion(tx);
    });
  });
});
