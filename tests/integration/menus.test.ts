import { desc, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { DEFAULT_MENUS, type SiteMenus } from "~/features/layout/menus";
import { SITE_MENUS_KEY } from "~/features/layout/menus.server";
import { readContentVersion } from "~/server/content-version.server";
import { appSettings, auditLog } from "~/server/db/schema.server";
import { describeEachDatabase } from "../helpers/databases";
import { signedInAs, unique } from "../helpers/factories";
import { useSignedInServer } from "../helpers/test-server";

/** The header menu and footer columns through the production server, as the editor posts them. */
describeEachDatabase("menus in the admin", (ctx) => {
  const server = useSignedInServer(ctx, "admin");
  const page = async (path: string) => (await server.fetch(path)).text();
  const save = (menus: unknown) => server.postForm("/admin/menus", { intent: "save", menus: JSON.stringify(menus) });

  it("the default footer links no design page; the header has the spec's links", async () => {
    const home = await page("/");
    expect(home).not.toContain('href="/hero-mockups"');
    for (const label of ["About Me", "Recent Roles", "My Projects", "Testimonials", "Contact Me", "Book a Call"])
      expect(home).toContain(`>${label}</a>`);
  });

  it("an administrator changes both menus; every page follows (content version bumped, audited); Reset brings the defaults back", async () => {
    const tag = unique();
    const menus: SiteMenus = {
      header: [
        { kind: "link", label: "Home", href: "/" },
        { kind: "link", label: `Speaking ${tag}`, href: "/speaking" },
        { kind: "link", label: `Elsewhere ${tag}`, href: "https://elsewhere.example/blog" },
        { kind: "categories", label: `Topics ${tag}` },
      ],
      footer: [{ title: `Pages ${tag}`, items: [{ kind: "link", label: `Uses ${tag}`, href: "/uses" }] }],
    };
    const v0 = await readContentVersion(ctx.db);
    const saved = await save(menus);
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe("/admin/menus");
    expect(await readContentVersion(ctx.db)).toBeGreaterThan(v0);
    const [audit] = await ctx.db.select({ action: auditLog.action }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
    expect(audit?.action).toBe("menus.update");

    const about = await page("/about");
    const header = about.slice(about.indexOf("<header"), about.indexOf("</header>"));
    expect(header).toContain(`href="/speaking"`);
    expect(header).toContain(`Speaking ${tag}`);
    expect(header).toContain(`href="https://elsewhere.example/blog" target="_blank" rel="noopener noreferrer"`);
    expect(header).toContain(`Topics ${tag}`);
    expect(header).not.toContain(">Testimonials<");
    expect(header).not.toContain(">Newsletter<");
    const footer = about.slice(about.indexOf("<footer"), about.indexOf("</footer>"));
    expect(footer).toContain(`Pages ${tag}`);
    expect(footer).toContain(`href="/uses"`);
    expect(footer).not.toContain("Quick Links");

    const reset = await server.postForm("/admin/menus", { intent: "reset" });
    expect(reset.status).toBe(302);
    expect(await ctx.db.select().from(appSettings).where(eq(appSettings.key, SITE_MENUS_KEY))).toHaveLength(0);
    const again = await page("/about");
    expect(again).not.toContain(`Speaking ${tag}`);
    expect(again).toContain("Quick Links");
    expect(again).toContain(">Testimonials</a>");
  });

  it("refuses an address that is neither a site path nor https, a blank label, and a plain user", async () => {
    const withHref = (href: string) => ({ ...DEFAULT_MENUS, header: [{ kind: "link", label: "Bad", href }] });
    for (const href of ["javascript:alert(1)", "http://plain.example", "//evil.example", "about"]) {
      const refused = await save(withHref(href));
      expect(refused.status, href).toBe(400);
      expect(await refused.text()).toContain(
        "The address of &quot;Bad&quot; must be a path of this site (such as /about) or an https:// address",
      );
    }
    const blank = await save({ ...DEFAULT_MENUS, header: [{ kind: "link", label: " ", href: "/" }] });
    expect(blank.status).toBe(400);
    expect(await blank.text()).toContain("A link&#x27;s label is required");
    const broken = await server.postForm("/admin/menus", { intent: "save", menus: "{not json" });
    expect(broken.status).toBe(400);

    const user = await signedInAs(ctx.db, "user");
    const refused = await server.fetch("/admin/menus", {
      method: "POST",
      headers: { cookie: user.cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "save", menus: JSON.stringify(withHref("/sneaky")) }).toString(),
    });
    expect(refused.status).toBe(403);
    expect(await page("/")).not.toContain('href="/sneaky"');
    expect(await ctx.db.select().from(appSettings).where(eq(appSettings.key, SITE_MENUS_KEY))).toHaveLength(0);
  });
});
