import { expect, it } from "vitest";
import type { Actor } from "~/lib/permissions";
import { readContentVersion } from "~/server/content-version.server";
import { auditLog } from "~/server/db/schema.server";
import { parseEnv } from "~/server/env.server";
import { ForbiddenError, UnauthorizedError } from "~/server/errors.server";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { defaultSiteSettings, readSiteSettings, saveSiteSettings } from "./settings.server";
import { settingsFormValues } from "./settings-schema";

const ADMIN: Actor = { id: "admin-id", role: "admin" };
const env = parseEnv({ SEED_DEMO_CONTENT: "true", SUBSTACK_URL: "https://news.example/", CONTACT_TO: "owner@example.com" });

describeEachDatabase("site settings", (ctx) => {
  it("starts from the demo identity with the environment's feeds and contact address", async () => {
    const settings = await readSiteSettings(ctx.db, env);
    expect(settings).toMatchObject({ siteName: "7 Fs Portfolio", substackUrl: "https://news.example/", contactEmail: "owner@example.com" });
    expect(defaultSiteSettings(parseEnv({ SEED_DEMO_CONTENT: "false" }))).toMatchObject({
      siteName: "Portfolio",
      socialLinks: [],
      schedulingUrl: "",
    });
  });

  it("refuses moderators, users and visitors before looking at the input, and changes nothing", async () => {
    const before = await readContentVersion(ctx.db);
    for (const actor of [
      { id: "m", role: "moderator" },
      { id: "u", role: "user" },
    ] satisfies Actor[]) {
      await expect(saveSiteSettings(ctx.db, actor, { siteName: "Taken" })).rejects.toBeInstanceOf(ForbiddenError);
      await expect(saveSiteSettings(ctx.db, actor, {})).rejects.toMatchObject({
        message: "Only administrators can change the site settings.",
      });
    }
    await expect(saveSiteSettings(ctx.db, null, { siteName: "Taken" })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(await readContentVersion(ctx.db)).toBe(before);
    expect((await readSiteSettings(ctx.db, env)).siteName).toBe("7 Fs Portfolio");
  });

  it("validates every field with a clear message", async () => {
    const base = settingsFormValues(await readSiteSettings(ctx.db, env));
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ siteName: "  " }, "siteName", "Site name is required"],
      [{ siteName: "x".repeat(81) }, "siteName", "Site name must be at most 80 characters"],
      [{ newsletterUrl: "javascript:alert(1)" }, "newsletterUrl", "Newsletter URL must be a web address starting with http:// or https://"],
      [
        { schedulingUrl: "ftp://cal.example" },
        "schedulingUrl",
        "Scheduling page URL must be a web address starting with http:// or https://",
      ],
      // Its origin goes into the Content-Security-Policy header, which ";" and "," would break.
      [
        { schedulingUrl: "https://cal;x.example/jo" },
        "schedulingUrl",
        "Scheduling page URL must be a web address starting with http:// or https://",
      ],
      [
        { newsletterUrl: "https://news,x.example" },
        "newsletterUrl",
        "Newsletter URL must be a web address starting with http:// or https://",
      ],
      [{ contactEmail: "not-an-address" }, "contactEmail", "Contact email must be a valid email address"],
      [
        { portraitUrl: "//evil.example/x.png" },
        "portraitUrl",
        "Portrait must be a site path starting with / or a web address starting with http:// or https://",
      ],
      [{ socialLinks: [{ label: "LinkedIn", url: "" }] }, "socialLinks", "Social links, link 1: the address is required"],
      [
        {
          serviceLinks: [
            { label: "Ok", url: "https://a.example" },
            { label: "Bad", url: "data:text/html,x" },
          ],
        },
        "serviceLinks",
        "Services links, link 2: the address must be a web address starting with http:// or https://, or mailto: and an email address",
      ],
      [
        { socialLinks: [{ label: "Mail", url: "mailto:not an address" }] },
        "socialLinks",
        "Social links, link 1: the address must be a web address starting with http:// or https://, or mailto: and an email address",
      ],
    ];
    for (const [change, field, message] of cases) {
      await expect(saveSiteSettings(ctx.db, ADMIN, { ...base, ...change })).rejects.toMatchObject({
        status: 400,
        fieldErrors: { [field]: [message] },
      });
    }
  });

  it("saves the whole record, bumps the content version, and reads it back", async () => {
    const before = await readContentVersion(ctx.db);
    const base = settingsFormValues(await readSiteSettings(ctx.db, env));
    await saveSiteSettings(ctx.db, ADMIN, {
      ...base,
      siteName: "  Jo Doe Consulting ",
      socialLinks: [
        { label: " Mastodon ", url: "https://social.example/@jo" },
        { label: "", url: "" },
        { label: "GitHub", url: "https://github.com/jo" },
      ],
      schedulingUrl: "",
    });
    expect(await readContentVersion(ctx.db)).toBe(before + 1);
    expect(await ctx.db.select({ action: auditLog.action, actorId: auditLog.actorId, summary: auditLog.summary }).from(auditLog)).toEqual([
      { action: "settings.update", actorId: ADMIN.id, summary: "Site name: Jo Doe Consulting" },
    ]);
    const saved = await readSiteSettings(ctx.db, env);
    expect(saved).toMatchObject({
      siteName: "Jo Doe Consulting",
      schedulingUrl: "",
      socialLinks: [
        { label: "Mastodon", url: "https://social.example/@jo" },
        { label: "GitHub", url: "https://github.com/jo" },
      ],
    });
    expect(settingsFormValues(saved).socialLinks).toEqual([
      { label: "Mastodon", url: "https://social.example/@jo" },
      { label: "GitHub", url: "https://github.com/jo" },
    ]);
  });
});
