import { afterAll, beforeAll, expect, it } from "vitest";
import { settingsFormFields } from "~/features/settings/settings-schema";
import { readSiteSettings } from "~/features/settings/settings.server";
import { readAnalyticsSettings } from "~/features/analytics/analytics-settings.server";
import { describeEachDatabase } from "../helpers/databases";
import { signedInAs } from "../helpers/factories";
import { startTestServer, type TestServer } from "../helpers/test-server";

/** /admin/settings through the production server: who may save, what it says when a field is wrong, and every public surface reading the result. */
describeEachDatabase("site settings over HTTP", (ctx) => {
  let server: TestServer;
  let admin = "";
  let moderator = "";
  beforeAll(async () => {
    process.env.LOG_LEVEL = "silent";
    server = await startTestServer();
    admin = (await signedInAs(ctx.db, "admin")).cookie;
    moderator = (await signedInAs(ctx.db, "moderator")).cookie;
  });
  afterAll(() => server.close());

  const post = (cookie: string, fields: Record<string, string>) =>
    server.fetch("/admin/settings", { method: "POST", headers: { origin: server.url, cookie }, body: new URLSearchParams(fields) });
  /** The form without its rows of `name` (`name[0].label`, …). */
  const withoutRows = (form: Record<string, string>, name: string) =>
    Object.fromEntries(Object.entries(form).filter(([key]) => !key.startsWith(`${name}[`)));
  const currentForm = async () => settingsFormFields(await readSiteSettings(ctx.db));

  it("is for admins only: a moderator can neither open nor save it, and sees no Settings link", async () => {
    expect((await server.fetch("/admin/settings", { headers: { cookie: moderator } })).status).toBe(403);
    const refused = await post(moderator, { ...(await currentForm()), siteName: "Hijacked" });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("Only administrators can change the site settings.");
    expect((await readSiteSettings(ctx.db)).siteName).not.toBe("Hijacked");
    const dashboard = await (await server.fetch("/admin", { headers: { cookie: moderator } })).text();
    expect(dashboard).not.toContain('href="/admin/settings"');
    const adminDashboard = await (await server.fetch("/admin", { headers: { cookie: admin } })).text();
    expect(adminDashboard).toContain('href="/admin/settings"');
  });

  it("answers a wrong field with 400 and its message, and keeps the old settings", async () => {
    const response = await post(admin, { ...(await currentForm()), newsletterUrl: "javascript:alert(1)" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Newsletter URL must be a web address starting with http:// or https://");
    expect((await readSiteSettings(ctx.db)).newsletterUrl).not.toContain("javascript");
  });

  it("links are rows: each checked with a message naming it, blank rows dropped, mailto allowed, stored in order", async () => {
    const form = withoutRows(withoutRows(await currentForm(), "socialLinks"), "serviceLinks");
    const bad = await post(admin, {
      ...form,
      "socialLinks[0].label": "GitHub",
      "socialLinks[0].url": "https://github.com/jo",
      "socialLinks[1].label": "Evil",
      "socialLinks[1].url": "javascript:alert(1)",
      "serviceLinks[0].label": "",
      "serviceLinks[0].url": "https://consulting.example",
    });
    expect(bad.status).toBe(400);
    const page = await bad.text();
    expect(page).toContain(
      "Social links, link 2: the address must be a web address starting with http:// or https://, or mailto: and an email address",
    );
    expect(page).toContain("Services links, link 1: the label is required");
    // The rows come back as typed, each with its own message under it.
    expect(page).toContain('value="javascript:alert(1)"');
    expect((await readSiteSettings(ctx.db)).socialLinks.map((link) => link.url)).not.toContain("javascript:alert(1)");

    const saved = await post(admin, {
      ...form,
      "socialLinks[0].label": "Email",
      "socialLinks[0].url": "mailto:jo@jodoe.example",
      "socialLinks[1].label": "",
      "socialLinks[1].url": "",
      "socialLinks[2].label": "GitHub",
      "socialLinks[2].url": "https://github.com/jo",
      "serviceLinks[0].label": "Consulting",
      "serviceLinks[0].url": "https://consulting.example",
    });
    expect(saved.status).toBe(302);
    const settings = await readSiteSettings(ctx.db);
    expect(settings.socialLinks).toEqual([
      { label: "Email", url: "mailto:jo@jodoe.example" },
      { label: "GitHub", url: "https://github.com/jo" },
    ]);
    expect(settings.serviceLinks).toEqual([{ label: "Consulting", url: "https://consulting.example" }]);
    // The stored links come back as rows, one label and one address field each.
    const editor = await (await server.fetch("/admin/settings", { headers: { cookie: admin } })).text();
    expect(editor).toMatch(
      /name="socialLinks\[1\]\.url"[^>]*value="https:\/\/github.com\/jo"|value="https:\/\/github.com\/jo"[^>]*name="socialLinks\[1\]\.url"/,
    );
  });

  it("without JavaScript, Add link, Move and Remove post the form back with the rows changed and save nothing", async () => {
    const before = await readSiteSettings(ctx.db);
    const form = await currentForm();
    const added = await post(admin, {
      ...form,
      __intent__: JSON.stringify({ type: "insert", payload: { name: "socialLinks", defaultValue: { label: "", url: "" } } }),
    });
    expect(added.status).toBe(200);
    const page = await added.text();
    const rows = before.socialLinks.length;
    expect(page).toContain(`name="socialLinks[${rows}].label"`);
    expect(page).not.toContain("Settings saved");
    expect(await readSiteSettings(ctx.db)).toEqual(before);
  });

  it("statistics settings: a bad blocked referrer is a 400 with its message; admins only", async () => {
    const statistics = (cookie: string, fields: Record<string, string>) => post(cookie, { intent: "statistics", ...fields });
    const bad = await statistics(admin, { blockedReferrers: "spam.example\nnot a host" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Blocked referrers must be host names like spam.example, one per line");
    expect((await readAnalyticsSettings(ctx.db)).blockedReferrers).toEqual([]);
    expect((await statistics(moderator, { honourDoNotTrack: "on" })).status).toBe(403);
    expect((await server.fetch("/admin/statistics", { headers: { cookie: moderator } })).status).toBe(403);
    const saved = await statistics(admin, {
      honourDoNotTrack: "on",
      blockedReferrers: "www.Spam.example\nbad.example",
    });
    expect(saved.status).toBe(302);
    expect(await readAnalyticsSettings(ctx.db)).toEqual({
      honourDoNotTrack: true,
      blockedReferrers: ["spam.example", "bad.example"],
    });
    const page = await (await server.fetch("/admin/settings", { headers: { cookie: admin } })).text();
    expect(page).toContain("Save statistics settings");
    expect(page).toMatch(/id="statistics-settings-honourDoNotTrack"[^>]*checked/);
    expect((await statistics(admin, {})).status).toBe(302);
    expect((await readAnalyticsSettings(ctx.db)).honourDoNotTrack).toBe(false);
  });

  it("saves with the 'Settings saved' toast, and every public page, the feed and the titles follow", async () => {
    const response = await post(admin, {
      ...withoutRows(await currentForm(), "socialLinks"),
      siteName: "Jo Doe Consulting",
      headline: "Fractional product leadership",
      contactEmail: "hello@jodoe.example",
      schedulingUrl: "",
      "socialLinks[0].label": "Mastodon",
      "socialLinks[0].url": "https://social.example/@jo",
    });
    expect(response.status).toBe(302);
    const toastPage = await (
      await server.fetch("/admin/settings", { headers: { cookie: `${admin}; ${response.headers.get("set-cookie")?.split(";")[0] ?? ""}` } })
    ).text();
    expect(toastPage).toContain("Settings saved");

    const home = await (await server.fetch("/")).text();
    expect(home).toContain("<title>Jo Doe Consulting — Fractional product leadership</title>");
    expect(home).toContain('<meta property="og:site_name" content="Jo Doe Consulting"/>');
    expect(home).toMatch(/© \d{4} Jo Doe Consulting\. All rights reserved\./);
    expect(home).toContain('href="https://social.example/@jo"');
    expect(home).not.toContain("<iframe");
    expect(home).toContain(">Book a call</a>");

    const about = await (await server.fetch("/about")).text();
    expect(about).toContain("<title>About Me — Education, Certifications, Skills and Tools | Jo Doe Consulting</title>");
    const contact = await (await server.fetch("/contact")).text();
    expect(contact).toContain('href="mailto:hello@jodoe.example"');
    const rss = await (await server.fetch("/rss.xml")).text();
    expect(rss).toContain("<title>7 Fs Framework — Jo Doe Consulting</title>");
  });

  it("an administrator edits the testimonials (a moderator may not), and the public page follows", async () => {
    const added = await server.fetch("/admin/testimonials", {
      method: "POST",
      headers: { origin: server.url, cookie: admin },
      body: new URLSearchParams({
        intent: "create",
        name: "Grace Hopper",
        position: "Rear Admiral",
        company: "",
        date: "1986",
        text: "It is easier to ask forgiveness.",
      }),
    });
    expect(added.status).toBe(302);
    expect(await (await server.fetch("/testimonials")).text()).toContain("It is easier to ask forgiveness.");
    const invalid = await server.fetch("/admin/testimonials", {
      method: "POST",
      headers: { origin: server.url, cookie: admin },
      body: new URLSearchParams({ intent: "create", name: "", position: "X", text: "Y" }),
    });
    expect(invalid.status).toBe(400);
    expect(await invalid.text()).toContain("Name is required");
    const user = (await signedInAs(ctx.db, "user")).cookie;
    // A plain user is sent away from the admin area, and the domain function refuses their write.
    expect((await server.fetch("/admin/testimonials", { headers: { cookie: user } })).headers.get("location")).toBe("/");
    const refused = await server.fetch("/admin/testimonials", {
      method: "POST",
      headers: { origin: server.url, cookie: user },
      body: new URLSearchParams({ intent: "create", name: "Mallory", position: "X", text: "Y" }),
    });
    expect(refused.status).toBe(403);
    expect(await (await server.fetch("/testimonials")).text()).not.toContain("Mallory");
  });
});
