import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { settingsFormValues } from "~/features/settings/settings-schema";
import { readSiteSettings } from "~/features/settings/settings.server";
import { describeEachDatabase } from "../helpers/databases";
import { signedInAs } from "../helpers/factories";
import { startTestServer, type TestServer } from "../helpers/test-server";

/** The brand's style element of a page (the accent's tokens and the pairing's fonts), or null. */
function brandCss(html: string): string | null {
  return /<style nonce="[^"]+">(:root[^<]*)<\/style>/.exec(html)?.[1] ?? null;
}

function fontPreloads(html: string): string[] {
  return [...html.matchAll(/<link rel="preload" href="([^"]+)" as="font" type="font\/woff2" crossorigin="anonymous"\/>/g)].map(
    (m) => m[1] ?? "",
  );
}

/** The accent colour and font pairing of /admin/settings through the production server. */
describeEachDatabase("brand: accent colour and fonts", (ctx) => {
  let server: TestServer;
  let admin = "";
  beforeAll(async () => {
    process.env.LOG_LEVEL = "silent";
    server = await startTestServer();
    admin = (await signedInAs(ctx.db, "admin")).cookie;
  });
  afterAll(() => server.close());

  const save = async (fields: Record<string, string>) =>
    server.fetch("/admin/settings", {
      method: "POST",
      headers: { origin: server.url, cookie: admin },
      body: new URLSearchParams({ ...settingsFormValues(await readSiteSettings(ctx.db)), ...fields }),
    });
  const home = async () => (await server.fetch("/")).text();

  it("refuses a low-contrast colour with 400 and the measured ratio, and keeps the old look", async () => {
    const before = await home();
    expect(brandCss(before)).toBeNull();
    const response = await save({ accentColor: "#7dd3fc" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(
      "Accent colour #7dd3fc has a contrast of 1.6:1 against white; it needs 4.5:1. Choose a darker colour.",
    );
    expect((await readSiteSettings(ctx.db)).accentColor).toBe("");
    expect(brandCss(await home())).toBeNull();
  });

  it("applies an accepted colour and pairing to every page's CSS at once (the cached page is refreshed)", async () => {
    await home(); // cached with the default look
    const response = await save({ accentColor: "#B91C1C", fontPairing: "editorial" });
    expect(response.status).toBe(302);
    expect((await readSiteSettings(ctx.db)).accentColor).toBe("#b91c1c");

    for (const path of ["/", "/about", "/7fs/Finance"]) {
      const page = await (await server.fetch(path)).text();
      const css = brandCss(page) ?? "";
      expect(css, path).toContain(":root{--primary:#b91c1c;--primary-foreground:#fafafa;");
      expect(css, path).toMatch(/:root\.dark\{--primary:#[0-9a-f]{6};/);
      expect(css, path).toContain('--font-heading:"Playfair Display"');
      expect(css, path).toContain("font-display:swap");
      // Self-hosted: nothing in it names another origin.
      expect(css, path).not.toMatch(/https?:|\/\//);
      expect(fontPreloads(page), path).toHaveLength(3);
    }

    const page = await home();
    const preloads = fontPreloads(page);
    expect(preloads.some((url) => /playfair-display-latin-700-normal-[\w-]+\.woff2$/.test(url))).toBe(true);
    expect(preloads.filter((url) => /source-sans-3-latin-(400|700)-normal-[\w-]+\.woff2$/.test(url))).toHaveLength(2);
    // Only the chosen pairing's files are named.
    expect(page).not.toMatch(/space-grotesk|lora-latin|open-sans/);
    // The files are in the build's static assets (server.js serves /assets; the e2e test loads them).
    for (const url of preloads) expect(fs.statSync(path.join("build/client", url)).size, url).toBeGreaterThan(10_000);

    const card = /<meta property="og:image" content="([^"]+)"/.exec(await (await server.fetch("/7fs/Finance")).text())?.[1] ?? "";
    const png = await server.fetch(new URL(card).pathname);
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
  });

  it("going back to the defaults removes the style and the preloads", async () => {
    expect((await save({ accentColor: "", fontPairing: "system" })).status).toBe(302);
    const page = await home();
    expect(brandCss(page)).toBeNull();
    expect(fontPreloads(page)).toEqual([]);
  });
});
