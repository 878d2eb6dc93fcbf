import { canEditPageContent, type Actor } from "~/lib/permissions";
import { authorize } from "~/server/authorize.server";
import { recordAudit } from "~/server/audit.server";
import { seedDemoOnce } from "~/server/content-rows.server";
import { bumpContentVersion } from "~/server/content-version.server";
import type { Db } from "~/server/db/client.server";
import { appSettings } from "~/server/db/schema.server";
import { parseOrThrow } from "~/server/errors.server";
import { ABOUT_INTRO, CERTIFICATIONS, EDUCATION, EXPERTISE, SKILLS, TOOLS } from "./content";
import { EMPTY_PAGE_CONTENT, pageContentFormSchema, storedPageContentSchema, type PageContent } from "./page-content-schema";
import { PAGE_CONTENT_FORBIDDEN } from "./testimonials-schema";
import { readJsonSetting, writeJsonSetting } from "~/server/app-settings.server";

/** The app_settings row holding the About and home lists as JSON. */
export const PAGE_CONTENT_KEY = "page_content";

/** The lists from the database; none saved (or a damaged row, logged) reads as empty lists. */
export async function readPageContent(db: Db): Promise<PageContent> {
  const stored = await readJsonSetting(db, PAGE_CONTENT_KEY, storedPageContentSchema);
  return { ...EMPTY_PAGE_CONTENT, ...stored };
}

function store(tx: Db, content: PageContent) {
  return writeJsonSetting(tx, PAGE_CONTENT_KEY, content);
}

/** Admins and moderators; validates every list, stores the whole record, audited, bumps the content version. */
export async function savePageContent(db: Db, actor: Actor | null, input: unknown): Promise<PageContent> {
  authorize(actor, canEditPageContent, PAGE_CONTENT_FORBIDDEN);
  const content = parseOrThrow(pageContentFormSchema, input);
  await db.transaction(async (tx) => {
    await store(tx, content);
    await bumpContentVersion(tx);
    await recordAudit(tx, {
      actor,
      action: "page-content.update",
      target: { type: "settings", id: PAGE_CONTENT_KEY },
      summary: `${content.intro ? "introduction, " : ""}${content.education.length} education, ${content.certifications.length} certifications, ${content.skills.length} skills, ${content.tools.length} tools, ${content.expertise.length} expertise`,
    });
  });
  return content;
}

/** The demo lists of content.ts, once per database and only with SEED_DEMO_CONTENT. */
export function seedDemoPageContent(db: Db, seedDemoContent: boolean): Promise<boolean> {
  return seedDemoOnce(db, seedDemoContent, "seeded_page_content", (tx) =>
    tx
      .insert(appSettings)
      .values({
        key: PAGE_CONTENT_KEY,
        value: JSON.stringify({
          intro: ABOUT_INTRO,
          heroGreeting: "",
          education: EDUCATION.map((e) => ({ ...e })),
          certifications: [...CERTIFICATIONS],
          skills: [...SKILLS],
          tools: [...TOOLS],
          expertise: EXPERTISE.map((e) => ({ ...e })),
        } satisfies PageContent),
      })
      .onConflictDoNothing(),
  );
}
