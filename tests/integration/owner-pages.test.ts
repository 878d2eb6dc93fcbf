import { desc, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import type { SiteMenus } from "~/features/layout/menus";
import { readContentVersion } from "~/server/content-version.server";
import { auditLog, ownerPageRevisions, ownerPages, user } from "~/server/db/schema.server";
import { describeEachDatabase } from "../helpers/databases";
import { signedInAs, unique } from "../helpers/factories";
import { appRoutes } from "../helpers/route-table";
import { BROWSER_UA, useSignedInServer } from "../helpers/test-server";

/** The owner's pages through the production server: the editor's form, the public route, the sitemap and the menus. */
describeEachDatabase("owner pages", (ctx) => {
  const server = useSignedInServer(ctx, "admin");
  const asAdmin = (path: string) => server.fetch(path, { headers: { cookie: server.cookie, "user-agent": BROWSER_UA } });
  const anonymous = (path: string) => server.fetch(path, { headers: { "user-agent": BROWSER_UA } });
  const form = (fields: Partial<Record<string, string>>) => ({
    intent: "save",
    title: "Speaking",
    address: "/speaking",
    content: "I talk about **product**.",
    metaTitle: "",
    metaDescription: "",
    ...fields,
  });
  const create = (fields: Partial<Record<string, string>>) =>
    server.postForm(
      "/admin/pages/new",
      Object.fromEntries(Object.entries(form(fields)).filter((e): e is [string, string] => e[1] !== undefined)),
    );
  const pageOf = async (address: string) => {
    const [row] = await ctx.db.select().from(ownerPages).where(eq(ownerPages.address, address));
    if (!row) throw new Error(`no page at /${address}`);
    return row;
  };

  it("refuses every route's first segment and the reserved words, nested and malformed addresses, with a clear 400", async () => {
    // Every top-level segment of app/routes.ts, read from the same table the server builds from.
    const segments = new Set(
      appRoutes()
        .map((route) => route.pattern.split("/")[1] ?? "")
        .filter((segment) => segment !== "" && !segment.startsWith(":") && segment !== "*" && /^[a-z0-9-]+$/.test(segment)),
    );
    expect(segments).toContain("about");
    expect(segments).toContain("7fs");
    expect(segments).toContain("admin");
    for (const segment of [...segments, "healthz", "assets", "images"]) {
      const refused = await create({ address: `/${segment}`, title: `Clash ${segment}` });
      expect(refused.status, segment).toBe(400);
      expect(await refused.text(), segment).toContain(`The address /${segment} belongs to the site itself`);
    }
    const nested = await create({ address: "/talks/speaking" });
    expect(nested.status).toBe(400);
    expect(await nested.text()).toContain("without further slashes");
    const bad = await create({ address: "/Speaking Now!" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("The address may only contain lowercase letters");
    const empty = await create({ address: "/" });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Address is required");
    expect(await ctx.db.select({ id: ownerPages.id }).from(ownerPages)).toHaveLength(0);
  });

  it("a draft is the site's 404 for visitors and a preview for staff; published, it is served, cached and in the sitemap", async () => {
    const tag = unique();
    const address = `speaking-${tag}`.toLowerCase();
    const v0 = await readContentVersion(ctx.db);
    const created = await create({ address: `/${address}`, title: `Speaking ${tag}`, metaDescription: `Talks ${tag}` });
    expect(created.status).toBe(302);
    const page = await pageOf(address);
    expect(created.headers.get("location")).toBe(`/admin/pages/${page.id}`);
    expect(page.published).toBe(false);
    expect(await readContentVersion(ctx.db)).toBeGreaterThan(v0);

    const hidden = await anonymous(`/${address}`);
    expect(hidden.status).toBe(404);
    const hiddenHtml = await hidden.text();
    expect(hiddenHtml).toContain("<h1");
    expect(hiddenHtml).toContain(">404</h1>");
    expect(hiddenHtml).not.toContain(`Speaking ${tag}`);
    const preview = await asAdmin(`/${address}`);
    expect(preview.status).toBe(200);
    expect(preview.headers.get("cache-control")).toContain("no-store");
    expect(await preview.text()).toContain("Draft: only people who edit pages see it.");
    expect(await (await anonymous("/sitemaps/pages.xml")).text()).not.toContain(`/${address}<`);

    const published = await server.postForm(`/admin/pages/${page.id}`, {
      ...form({ address: `/${address}`, title: `Speaking ${tag}`, metaDescription: `Talks ${tag}`, content: "Now **live**." }),
      published: "on",
      version: String(page.version),
    });
    expect(published.status).toBe(302);
    const live = await anonymous(`/${address}`);
    expect(live.status).toBe(200);
    const html = await live.text();
    expect(html).toContain(`Speaking ${tag}`);
    expect(html).toContain("<strong>live</strong>");
    expect(html).toContain(`<meta name="description" content="Talks ${tag}"/>`);
    expect(await (await anonymous("/sitemaps/pages.xml")).text()).toContain(`/${address}</loc>`);

    const revisions = await ctx.db
      .select({ kind: ownerPageRevisions.kind })
      .from(ownerPageRevisions)
      .where(eq(ownerPageRevisions.pageId, page.id));
    expect(revisions.map((r) => r.kind).sort()).toEqual(["publish", "save"]);
    const [audit] = await ctx.db.select({ action: auditLog.action }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
    expect(audit?.action).toBe("page.update");
    const revisionsApi = await asAdmin(`/api/pages/${page.id}/revisions`);
    expect(revisionsApi.status).toBe(200);
    expect(((await revisionsApi.json()) as { revisions: unknown[] }).revisions).toHaveLength(2);
    // Without a description of its own, the page is described by its opening words.
    const undescribed = await server.postForm(`/admin/pages/${page.id}`, {
      ...form({ address: `/${address}`, title: `Speaking ${tag}`, content: "Now **live**, on stage & online." }),
      published: "on",
      version: String((await pageOf(address)).version),
    });
    expect(undescribed.status).toBe(302);
    expect(await (await anonymous(`/${address}`)).text()).toContain(
      `<meta name="description" content="Now live, on stage &amp; online."/>`,
    );

    // A stale version is a conflict, another page's address a 400.
    const stale = await server.postForm(`/admin/pages/${page.id}`, { ...form({ address: `/${address}` }), version: String(page.version) });
    expect(stale.status).toBe(409);
    const other = await create({ address: `/${address}`, title: "Twin" });
    expect(other.status).toBe(400);
    expect(await other.text()).toContain("Another page already uses that address");

    // Unpublished: the site's 404 again, out of the sitemap.
    const current = await pageOf(address);
    await server.postForm(`/admin/pages/${page.id}`, {
      ...form({ address: `/${address}`, title: `Speaking ${tag}` }),
      version: String(current.version),
    });
    expect((await anonymous(`/${address}`)).status).toBe(404);
    expect(await (await anonymous("/sitemaps/pages.xml")).text()).not.toContain(`/${address}</loc>`);
  });

  it("a page item shows in the menus while its page is published, and disappears (menus intact) when unpublished or deleted", async () => {
    const tag = unique();
    const address = `uses-${tag}`.toLowerCase();
    await create({ address: `/${address}`, title: `Uses ${tag}`, published: "on" });
    const page = await pageOf(address);
    const menus: SiteMenus = {
      header: [
        { kind: "link", label: "Home", href: "/" },
        { kind: "page", label: `My setup ${tag}`, pageId: page.id },
      ],
      footer: [
        {
          title: `More ${tag}`,
          items: [
            { kind: "page", label: `Tools ${tag}`, pageId: page.id },
            { kind: "link", label: `Stay ${tag}`, href: "/about" },
          ],
        },
      ],
    };
    expect((await server.postForm("/admin/menus", { intent: "save", menus: JSON.stringify(menus) })).status).toBe(302);
    const home = await (await anonymous("/")).text();
    const header = home.slice(home.indexOf("<header"), home.indexOf("</header>"));
    expect(header).toContain(`href="/${address}"`);
    expect(header).toContain(`My setup ${tag}`);
    const footer = home.slice(home.indexOf("<footer"), home.indexOf("</footer>"));
    expect(footer).toContain(`Tools ${tag}`);

    const bogus = await server.postForm("/admin/menus", {
      intent: "save",
      menus: JSON.stringify({ header: [{ kind: "page", label: "X", pageId: "nope" }], footer: [] }),
    });
    expect(bogus.status).toBe(400);
    expect(await bogus.text()).toContain("Choose one of your pages for each page item");

    const deleted = await server.postForm("/admin/pages", { intent: "delete", id: page.id });
    expect(deleted.status).toBe(302);
    const after = await anonymous("/");
    expect(after.status).toBe(200);
    const afterHtml = await after.text();
    expect(afterHtml).not.toContain(`My setup ${tag}`);
    expect(afterHtml).not.toContain(`Tools ${tag}`);
    expect(afterHtml).toContain(`More ${tag}`);
    expect(afterHtml).toContain(`Stay ${tag}`);
    expect((await anonymous(`/${address}`)).status).toBe(404);
    await server.postForm("/admin/menus", { intent: "reset" });
  });

  it("Hero Mockups is a built-in page the owner unpublishes (the site's 404) and publishes again", async () => {
    expect((await anonymous("/hero-mockups")).status).toBe(200);
    const off = await server.postForm("/admin/pages", { intent: "hero-mockups", published: "false" });
    expect(off.status).toBe(302);
    const gone = await anonymous("/hero-mockups");
    expect(gone.status).toBe(404);
    expect(await gone.text()).not.toContain("Hero Section Options");
    expect(await (await asAdmin("/admin/pages")).text()).toContain("Publish Hero Mockups");
    await server.postForm("/admin/pages", { intent: "hero-mockups", published: "true" });
    expect((await anonymous("/hero-mockups")).status).toBe(200);
    const bad = await server.postForm("/admin/pages", { intent: "hero-mockups", published: "maybe" });
    expect(bad.status).toBe(400);
  });

  it("moderators edit pages only with the Pages & profile grant; visitors and users never", async () => {
    const moderator = await signedInAs(ctx.db, "moderator");
    const asModerator = () => server.fetch("/admin/pages", { headers: { cookie: moderator.cookie } });
    expect((await asModerator()).status).toBe(403);
    await ctx.db
      .update(user)
      .set({ grants: ["page-content"] })
      .where(eq(user.id, moderator.userId));
    expect((await asModerator()).status).toBe(200);
    const plain = await signedInAs(ctx.db, "user");
    const refused = await server.fetch("/admin/pages/new", {
      method: "POST",
      headers: { cookie: plain.cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form({ address: "/sneaky" }) as Record<string, string>).toString(),
    });
    expect(refused.status).toBe(403);
    expect(await ctx.db.select().from(ownerPages).where(eq(ownerPages.address, "sneaky"))).toHaveLength(0);
  });
});
