import { expect, it } from "vitest";
import { readSiteSettings, saveSiteSettings } from "~/features/settings/settings.server";
import { settingsFormValues } from "~/features/settings/settings-schema";
import { SITE_COPY_DEFAULTS } from "~/features/pages/site-copy";
import { SITE_COPY_KEY } from "~/features/pages/site-copy.server";
import { readContentVersion } from "~/server/content-version.server";
import { appSettings, auditLog, positions } from "~/server/db/schema.server";
import { desc, eq } from "drizzle-orm";
import { describeEachDatabase } from "../helpers/databases";
import { signedInAs, unique } from "../helpers/factories";
import { useSignedInServer } from "../helpers/test-server";

const LISTS = { intro: "", education: "", certifications: "", skills: "", tools: "", expertise: "" };

/**
 * Page content through the production server, as a browser without JavaScript posts the forms: a
 * administrator edits the Recent Roles timeline and the About and home lists, the public pages follow,
 * and an empty list leaves no empty box behind.
 */
describeEachDatabase("recent roles and About lists in the admin", (ctx) => {
  const server = useSignedInServer(ctx, "admin");
  const page = async (path: string) => (await server.fetch(path)).text();
  /** /admin/about posted with another account's session. */
  const postAs = (cookie: string, fields: Record<string, string>) =>
    server.fetch("/admin/about", {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });

  it("an administrator saves the About and home lists; /about and / show them, in order", async () => {
    const tag = unique();
    const saved = await server.postForm("/admin/about", {
      ...LISTS,
      intro: `Hello, I weave <b>engines</b> ${tag}.`,
      education: `B.Sc. Mathematics ${tag} | Open University | 2019`,
      certifications: `Certified Operator ${tag}\nSecond Certificate ${tag}`,
      skills: `Weaving ${tag}`,
      expertise: `Engines ${tag} | Building engines that weave`,
    });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe("/admin/about");
    const about = await page("/about");
    // The introduction is text, escaped, not markup.
    expect(about).toContain(`Hello, I weave &lt;b&gt;engines&lt;/b&gt; ${tag}.`);
    expect(about).toContain(`B.Sc. Mathematics ${tag}`);
    expect(about).toContain("Open University · 2019");
    expect(about.indexOf(`Certified Operator ${tag}`)).toBeLessThan(about.indexOf(`Second Certificate ${tag}`));
    expect(about).toContain(`Weaving ${tag}`);
    // The empty list (tools) has no section at all.
    expect(about).not.toContain('id="tools-heading"');
    const home = await page("/");
    expect(home).toContain(`Certified Operator ${tag}`);
    expect(home).toContain(`Engines ${tag}`);
  });

  it("refuses a bad line with its message (400) and a plain user (403)", async () => {
    const invalid = await server.postForm("/admin/about", { ...LISTS, education: "Only a degree" });
    expect(invalid.status).toBe(400);
    expect(await invalid.text()).toContain("Education, line 1: write it as &quot;Degree | School | Year&quot;");
    const user = await signedInAs(ctx.db, "user");
    const refused = await postAs(user.cookie, { ...LISTS, skills: "Sneaky" });
    expect(refused.status).toBe(403);
    expect(await page("/about")).not.toContain("Sneaky");
  });

  it("with every list empty, /about and / show no empty sections; the settings' short bio introduces the owner", async () => {
    const bio = `Short bio ${unique()}`;
    const admin = { id: "test-admin", role: "admin" } as const;
    await saveSiteSettings(ctx.db, admin, { ...settingsFormValues(await readSiteSettings(ctx.db)), bio });
    expect((await server.postForm("/admin/about", LISTS)).status).toBe(302);
    const about = await page("/about");
    expect(about).toContain(bio);
    expect(about).toContain("More about my background is coming soon.");
    for (const id of ["education", "certifications", "skills", "tools"]) expect(about).not.toContain(`id="${id}-heading"`);
    const home = await page("/");
    expect(home).not.toContain('id="expertise-heading"');
    expect(home).not.toContain('aria-label="Certifications"');
  });

  it("an administrator adds a role to the timeline; with none left, /recent-roles says so", async () => {
    const title = `Engine Designer ${unique()}`;
    const added = await server.postForm("/admin/recent-roles", {
      intent: "create",
      title,
      company: "Analytical Engines Ltd",
      description: "Designed the mill and the store.",
      bullets: "First highlight\nSecond highlight",
    });
    expect(added.status).toBe(302);
    expect(added.headers.get("location")).toBe("/admin/recent-roles");
    const timeline = await page("/recent-roles");
    expect(timeline).toContain(title);
    expect(timeline).toContain("<li>Second highlight</li>");
    const missing = await server.postForm("/admin/recent-roles", { intent: "create", title: "", company: "X", description: "Y" });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("Title is required");

    await ctx.db.delete(positions);
    expect(await page("/recent-roles")).toContain("No roles to show yet.");
  });

  it("page texts: a changed sentence shows on its page (content version bumped, audited); Reset to default brings the spec's text back", async () => {
    const tag = unique();
    const v0 = await readContentVersion(ctx.db);
    const saved = await server.postForm("/admin/about", {
      ...SITE_COPY_DEFAULTS,
      intent: "site-copy",
      homeFeaturedSubtitle: `Fresh from the workshop ${tag}`,
      contactResponseTime: `Replies within a week ${tag}`,
      projectsOtherHeading: `Side quests <i>${tag}</i>`,
    });
    expect(saved.status).toBe(302);
    expect(await readContentVersion(ctx.db)).toBeGreaterThan(v0);
    const [stored] = await ctx.db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, SITE_COPY_KEY));
    // Only the changes are stored: the defaults stay the code's.
    expect(Object.keys(JSON.parse(stored?.value ?? "{}")).sort()).toEqual([
      "contactResponseTime",
      "homeFeaturedSubtitle",
      "projectsOtherHeading",
    ]);
    const [audit] = await ctx.db.select({ action: auditLog.action }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
    expect(audit?.action).toBe("site-copy.update");
    expect(await page("/")).toContain(`Fresh from the workshop ${tag}`);
    expect(await page("/contact")).toContain(`Replies within a week ${tag}`);
    // Plain text, escaped.
    expect(await page("/projects")).toContain(`Side quests &lt;i&gt;${tag}&lt;/i&gt;`);

    const reset = await server.postForm("/admin/about", { intent: "site-copy", reset: "contactResponseTime" });
    expect(reset.status).toBe(302);
    expect(await page("/contact")).toContain(SITE_COPY_DEFAULTS.contactResponseTime);
    expect(await page("/")).toContain(`Fresh from the workshop ${tag}`);

    const unknown = await server.postForm("/admin/about", { intent: "site-copy", reset: "constructor" });
    expect(unknown.status).toBe(400);
    const blank = await server.postForm("/admin/about", { ...SITE_COPY_DEFAULTS, intent: "site-copy", contactHeading: " " });
    expect(blank.status).toBe(400);
    expect(await blank.text()).toContain("Heading is required");

    const user = await signedInAs(ctx.db, "user");
    const refused = await postAs(user.cookie, { intent: "site-copy", reset: "homeFeaturedSubtitle" });
    expect(refused.status).toBe(403);
    expect(await page("/")).toContain(`Fresh from the workshop ${tag}`);
    await ctx.db.delete(appSettings).where(eq(appSettings.key, SITE_COPY_KEY));
  });

  it("page texts: the contact thank-you and description, a category description, the 404 text and the copyright line follow the owner; each resets", async () => {
    const tag = unique();
    const changed = {
      contactDescription: `Write to me about engines ${tag}`,
      contactThankYouTitle: `Cheers, {name} ${tag}!`,
      contactThankYouText: `Got it ${tag}; I answer within a week.`,
      categoryFunDescription: `Games and gears ${tag}`,
      notFoundText: `Nothing here ${tag}`,
      footerCopyright: `© {year} {site} ${tag}`,
    } as const;
    const saved = await server.postForm("/admin/about", { ...SITE_COPY_DEFAULTS, intent: "site-copy", ...changed });
    expect(saved.status).toBe(302);
    const year = String(new Date().getFullYear());
    const { siteName } = await readSiteSettings(ctx.db);
    const contact = await page("/contact");
    expect(contact).toContain(`<meta name="description" content="Write to me about engines ${tag}"/>`);
    // The dialog's title before a name is known, and its template for the form's script.
    expect(contact).toContain(`data-template="Cheers, {name} ${tag}!"`);
    expect(contact).toContain(`>Cheers ${tag}!</h2>`);
    expect(contact).toContain(`Got it ${tag}; I answer within a week.`);
    expect(await page("/7fs/Fun")).toContain(`Games and gears ${tag}`);
    expect(await page("/7fs/Fun/rss.xml")).toContain(`<description>Games and gears ${tag}</description>`);
    const missing = await server.fetch(`/no-such-page-${tag}`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain(`Nothing here ${tag}`);
    const home = await page("/");
    expect(home).toContain(`© ${year} ${siteName} ${tag}`);
    expect(home).not.toContain("All rights reserved.");

    const unknownPlaceholder = await server.postForm("/admin/about", {
      ...SITE_COPY_DEFAULTS,
      intent: "site-copy",
      footerCopyright: "© {yaer} {site}",
    });
    expect(unknownPlaceholder.status).toBe(400);
    expect(await unknownPlaceholder.text()).toContain("Copyright line may use only {year} and {site} in braces");

    for (const key of Object.keys(changed)) {
      expect((await server.postForm("/admin/about", { intent: "site-copy", reset: key })).status).toBe(302);
    }
    const [stored] = await ctx.db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, SITE_COPY_KEY));
    expect(JSON.parse(stored?.value ?? "null")).toEqual({});
    const contactAgain = await page("/contact");
    expect(contactAgain).toContain(`<meta name="description" content="${SITE_COPY_DEFAULTS.contactDescription}"/>`);
    expect(contactAgain).toContain('data-template="Thank you, {name}!"');
    expect(contactAgain).toContain(">Thank you!</h2>");
    expect(contactAgain).toContain(SITE_COPY_DEFAULTS.contactThankYouText.replace("'", "&#x27;"));
    expect(await page("/7fs/Fun")).toContain(SITE_COPY_DEFAULTS.categoryFunDescription);
    expect(await page("/7fs/Fun/rss.xml")).toContain(`<description>${SITE_COPY_DEFAULTS.categoryFunDescription}</description>`);
    expect(await (await server.fetch(`/no-such-page-${tag}`)).text()).toContain(SITE_COPY_DEFAULTS.notFoundText);
    expect(await page("/")).toContain(`© ${year} ${siteName}. All rights reserved.`);
  });
});
