import { eq, gt, max } from "drizzle-orm";
import { expect, it } from "vitest";
import type { Actor } from "~/lib/permissions";
import { readContentVersion } from "~/server/content-version.server";
import { appSettings, auditLog } from "~/server/db/schema.server";
import { ForbiddenError, UnauthorizedError } from "~/server/errors.server";
import { describeEachDatabase } from "../../../tests/helpers/databases";
import { ABOUT_INTRO, CERTIFICATIONS, EXPERTISE } from "./content";
import { pageContentFormValues } from "./page-content-schema";
import { PAGE_CONTENT_KEY, readPageContent, savePageContent, seedDemoPageContent } from "./page-content.server";

const ADMIN: Actor = { id: "admin-id", role: "admin" };
const MODERATOR: Actor = { id: "mod-id", role: "moderator" };
const USER: Actor = { id: "user-id", role: "user" };

const FORM = {
  intro: "  I build engines.\nAnd I write about them.  ",
  heroGreeting: " Hi, I'm Maya Rivera ",
  education: "M.S. Data Science | State University | 2020\nB.A. History | City College",
  certifications: "PMP\n\nCSM",
  skills: "Planning",
  tools: "",
  expertise: "Delivery | Shipping on time | every time",
};

describeEachDatabase("About and home lists (page content)", (ctx) => {
  it("seeds the demo lists once, and reads empty lists without SEED_DEMO_CONTENT", async () => {
    expect(await seedDemoPageContent(ctx.db, false)).toBe(false);
    expect(await readPageContent(ctx.db)).toEqual({
      intro: "",
      heroGreeting: "",
      education: [],
      certifications: [],
      skills: [],
      tools: [],
      expertise: [],
    });
    expect(await seedDemoPageContent(ctx.db, true)).toBe(true);
    const seeded = await readPageContent(ctx.db);
    expect(seeded.intro).toBe(ABOUT_INTRO);
    expect(seeded.certifications).toEqual([...CERTIFICATIONS]);
    expect(seeded.expertise).toEqual(EXPERTISE.map((e) => ({ ...e })));
    expect(seeded.education[0]).toEqual({
      degree: "M.S. Information Systems Management",
      school: "University of Maryland Global Campus",
      year: "2016",
    });
    // What the owner saved (even all empty) is never overwritten by a later start.
    await savePageContent(ctx.db, ADMIN, { intro: "", education: "", certifications: "", skills: "", tools: "", expertise: "" });
    expect(await seedDemoPageContent(ctx.db, true)).toBe(false);
    expect((await readPageContent(ctx.db)).certifications).toEqual([]);
  });

  it("lets an administrator save the lists in order (audited, content version bumped); refuses moderators, users and visitors", async () => {
    await expect(savePageContent(ctx.db, MODERATOR, FORM)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(savePageContent(ctx.db, USER, FORM)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(savePageContent(ctx.db, null, FORM)).rejects.toBeInstanceOf(UnauthorizedError);
    const v0 = await readContentVersion(ctx.db);
    const [auditBefore] = await ctx.db.select({ n: max(auditLog.id) }).from(auditLog);
    await savePageContent(ctx.db, ADMIN, FORM);
    expect(await readContentVersion(ctx.db)).toBe(v0 + 1);
    const saved = await readPageContent(ctx.db);
    expect(saved).toEqual({
      intro: "I build engines.\nAnd I write about them.",
      heroGreeting: "Hi, I'm Maya Rivera",
      education: [
        { degree: "M.S. Data Science", school: "State University", year: "2020" },
        { degree: "B.A. History", school: "City College", year: "" },
      ],
      certifications: ["PMP", "CSM"],
      skills: ["Planning"],
      tools: [],
      expertise: [{ title: "Delivery", description: "Shipping on time | every time" }],
    });
    // The form shows what was saved, and saving it again changes nothing.
    await savePageContent(ctx.db, ADMIN, pageContentFormValues(saved));
    expect(await readPageContent(ctx.db)).toEqual(saved);
    const audit = await ctx.db
      .select({ action: auditLog.action, actorId: auditLog.actorId })
      .from(auditLog)
      .where(gt(auditLog.id, auditBefore?.n ?? 0));
    expect(audit).toEqual([
      { action: "page-content.update", actorId: ADMIN.id },
      { action: "page-content.update", actorId: ADMIN.id },
    ]);
  });

  it("validates every list with a message naming the line", async () => {
    const before = await readPageContent(ctx.db);
    const invalid = (fields: Partial<typeof FORM>) => savePageContent(ctx.db, ADMIN, { ...FORM, ...fields });
    await expect(invalid({ education: "Degree only" })).rejects.toMatchObject({
      status: 400,
      fieldErrors: { education: ['Education, line 1: write it as "Degree | School | Year"'] },
    });
    await expect(invalid({ expertise: "Fine | Yes\nNo description |" })).rejects.toMatchObject({
      fieldErrors: { expertise: ['Expertise, line 2: write it as "Title | Description"'] },
    });
    await expect(invalid({ expertise: `Long | ${"x".repeat(401)}` })).rejects.toMatchObject({
      fieldErrors: { expertise: ["Expertise, line 1: the description must be at most 400 characters"] },
    });
    await expect(invalid({ skills: `ok\n${"x".repeat(121)}` })).rejects.toMatchObject({
      fieldErrors: { skills: ["Skills, line 2: at most 120 characters"] },
    });
    await expect(invalid({ heroGreeting: "x".repeat(121) })).rejects.toMatchObject({
      fieldErrors: { heroGreeting: ["Hero greeting must be at most 120 characters"] },
    });
    await expect(invalid({ intro: "x".repeat(2001) })).rejects.toMatchObject({
      fieldErrors: { intro: ["Introduction must be at most 2000 characters"] },
    });
    await expect(invalid({ certifications: Array.from({ length: 31 }, (_, i) => `C${i}`).join("\n") })).rejects.toMatchObject({
      fieldErrors: { certifications: ["Certifications: at most 30 lines"] },
    });
    expect(await readPageContent(ctx.db)).toEqual(before);
  });

  it("reads a damaged record as empty lists", async () => {
    await savePageContent(ctx.db, ADMIN, FORM);
    expect((await readPageContent(ctx.db)).skills).toEqual(["Planning"]);
    await ctx.db.update(appSettings).set({ value: "{not json" }).where(eq(appSettings.key, PAGE_CONTENT_KEY));
    expect((await readPageContent(ctx.db)).skills).toEqual([]);
    await ctx.db
      .update(appSettings)
      .set({ value: JSON.stringify({ skills: "not a list" }) })
      .where(eq(appSettings.key, PAGE_CONTENT_KEY));
    expect((await readPageContent(ctx.db)).skills).toEqual([]);
  });
});
