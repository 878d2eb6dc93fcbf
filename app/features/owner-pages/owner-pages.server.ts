import { and, asc, desc, eq, isNull, notInArray, sql } from "drizzle-orm";
import { renderPostBody } from "~/features/posts/content/post-render.server";
import { canEditPageContent, type Actor } from "~/lib/permissions";
import { recordAudit } from "~/server/audit.server";
import { authorize } from "~/server/authorize.server";
import { bumpContentVersion, perContentVersion } from "~/server/content-version.server";
import type { Db } from "~/server/db/client.server";
import { hasPgErrorCode, UNIQUE_VIOLATION } from "~/server/db/pg-errors.server";
import { appSettings, ownerPageAutosaves, ownerPageRevisions, ownerPages, user } from "~/server/db/schema.server";
import { getEnv } from "~/server/env.server";
import { ConflictError, NotFoundError, parseOrThrow, ValidationError } from "~/server/errors.server";
import { z } from "zod";
import {
  addressReservedMessage,
  ownerPageInputSchema,
  PAGE_LIMITS,
  PAGE_MESSAGES,
  pageIdSchema,
  type OwnerPageInput,
} from "./owner-page-schema";
import { reservedAddresses, type RouteEntry } from "./reserved-addresses";

export interface OwnerPageSummary {
  id: string;
  title: string;
  address: string;
  published: boolean;
  updatedAt: Date;
}

export interface OwnerPage extends OwnerPageSummary {
  content: string;
  contentHtml: string;
  metaTitle: string | null;
  metaDescription: string | null;
  commentsEnabled: boolean;
  version: number;
}

const summaryColumns = {
  id: ownerPages.id,
  title: ownerPages.title,
  address: ownerPages.address,
  published: ownerPages.published,
  updatedAt: ownerPages.updatedAt,
};
const pageColumns = {
  ...summaryColumns,
  content: ownerPages.content,
  contentHtml: ownerPages.contentHtml,
  metaTitle: ownerPages.metaTitle,
  metaDescription: ownerPages.metaDescription,
  commentsEnabled: ownerPages.commentsEnabled,
  version: ownerPages.version,
};

let reservedCache: Set<string> | undefined;

/** Every first segment the app's route table answers, plus the reserved words: read once from the build. */
async function reservedSet(): Promise<Set<string>> {
  if (reservedCache) return reservedCache;
  const build = await import("virtual:react-router/server-build");
  const routes = Object.values(build.routes).flatMap((route): RouteEntry[] =>
    route ? [{ id: route.id, path: route.path, parentId: route.parentId }] : [],
  );
  reservedCache = reservedAddresses(routes);
  return reservedCache;
}

/** Whether a page may take `address` (the route table and reserved words), as the 400 message or null. */
export async function reservedAddressProblem(address: string): Promise<string | null> {
  return (await reservedSet()).has(address) ? addressReservedMessage(address) : null;
}

async function checkedInput(input: unknown): Promise<OwnerPageInput> {
  const parsed = parseOrThrow(ownerPageInputSchema, input);
  const reserved = await reservedAddressProblem(parsed.address);
  if (reserved) throw new ValidationError(reserved);
  return parsed;
}

function authorizePages(actor: Actor | null): asserts actor is Actor {
  authorize(actor, canEditPageContent, PAGE_MESSAGES.forbidden);
}

const addressTaken = () => new ValidationError(PAGE_MESSAGES.addressTaken);

export async function listPagesForAdmin(db: Db, actor: Actor | null): Promise<OwnerPageSummary[]> {
  authorizePages(actor);
  return db.select(summaryColumns).from(ownerPages).orderBy(asc(ownerPages.title), asc(ownerPages.id));
}

async function findPage(db: Db, id: unknown): Promise<OwnerPage> {
  const pageId = parseOrThrow(pageIdSchema, id);
  const [page] = await db.select(pageColumns).from(ownerPages).where(eq(ownerPages.id, pageId));
  if (!page) throw new NotFoundError(PAGE_MESSAGES.gone);
  return page;
}

export async function getPageForEditing(db: Db, actor: Actor | null, id: unknown): Promise<OwnerPage> {
  authorizePages(actor);
  return findPage(db, id);
}

type RevisionKind = "save" | "publish" | "unpublish";

/** Stores a revision in the save's transaction and keeps the page's newest POST_REVISIONS_KEEP, as posts do. */
async function recordPageRevision(tx: Db, kind: RevisionKind, page: { id: string; title: string; content: string }, actor: Actor) {
  await tx.insert(ownerPageRevisions).values({ pageId: page.id, kind, title: page.title, content: page.content, authorId: actor.id });
  const keep = tx
    .select({ id: ownerPageRevisions.id })
    .from(ownerPageRevisions)
    .where(eq(ownerPageRevisions.pageId, page.id))
    .orderBy(desc(ownerPageRevisions.createdAt), desc(ownerPageRevisions.id))
    .limit(getEnv().POST_REVISIONS_KEEP);
  await tx.delete(ownerPageRevisions).where(and(eq(ownerPageRevisions.pageId, page.id), notInArray(ownerPageRevisions.id, keep)));
}

/** The columns a create or a save writes from the editor's input and its rendering. */
const storedFields = (page: OwnerPageInput, contentHtml: string) => ({
  title: page.title,
  address: page.address,
  content: page.content,
  contentHtml,
  metaTitle: page.metaTitle,
  metaDescription: page.metaDescription,
  published: page.published,
  commentsEnabled: page.commentsEnabled,
});

const kindOf = (before: boolean, after: boolean): RevisionKind => (before === after ? "save" : after ? "publish" : "unpublish");

/** A new page: address checked against the routes, reserved words and other pages; audited; public output refreshed. */
export async function createPage(db: Db, actor: Actor | null, input: unknown): Promise<OwnerPage> {
  authorizePages(actor);
  const page = await checkedInput(input);
  const rendered = await renderPostBody(db, page.content);
  try {
    return await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(ownerPages)
        .values({ ...storedFields(page, rendered.html), authorId: actor.id })
        .returning(pageColumns);
      if (!created) throw new Error("owner page insert returned no row");
      await recordPageRevision(tx, kindOf(false, created.published), created, actor);
      await tx.delete(ownerPageAutosaves).where(and(eq(ownerPageAutosaves.authorId, actor.id), isNull(ownerPageAutosaves.pageId)));
      await bumpContentVersion(tx);
      await recordAudit(tx, { actor, action: "page.create", target: { type: "page", id: created.id }, summary: `/${created.address}` });
      return created;
    });
  } catch (error) {
    if (hasPgErrorCode(error, UNIQUE_VIOLATION)) throw addressTaken();
    throw error;
  }
}

/** Saves a page over the version the editor loaded (an older one: 409); audited; public output refreshed. */
export async function updatePage(db: Db, actor: Actor | null, id: unknown, input: unknown): Promise<OwnerPage> {
  authorizePages(actor);
  const before = await findPage(db, id);
  const page = await checkedInput(input);
  if (page.version !== undefined && page.version !== before.version) throw new ConflictError(PAGE_MESSAGES.conflict);
  const rendered = await renderPostBody(db, page.content);
  try {
    return await db.transaction(async (tx) => {
      const [updated] = await tx
        .update(ownerPages)
        .set({
          ...storedFields(page, rendered.html),
          version: sql`${ownerPages.version} + 1`,
          updatedAt: new Date(),
        })
        .where(and(eq(ownerPages.id, before.id), eq(ownerPages.version, before.version)))
        .returning(pageColumns);
      if (!updated) throw new ConflictError(PAGE_MESSAGES.conflict);
      await recordPageRevision(tx, kindOf(before.published, updated.published), updated, actor);
      await tx.delete(ownerPageAutosaves).where(and(eq(ownerPageAutosaves.authorId, actor.id), eq(ownerPageAutosaves.pageId, updated.id)));
      await bumpContentVersion(tx);
      const summary = before.address === updated.address ? `/${updated.address}` : `/${before.address} → /${updated.address}`;
      await recordAudit(tx, { actor, action: "page.update", target: { type: "page", id: updated.id }, summary });
      return updated;
    });
  } catch (error) {
    if (hasPgErrorCode(error, UNIQUE_VIOLATION)) throw addressTaken();
    throw error;
  }
}

/** Deletes a page (its revisions and autosaves go with it); menu items naming it stop showing. */
export async function deletePage(db: Db, actor: Actor | null, id: unknown): Promise<OwnerPageSummary> {
  authorizePages(actor);
  const pageId = parseOrThrow(pageIdSchema, id);
  return db.transaction(async (tx) => {
    const [deleted] = await tx.delete(ownerPages).where(eq(ownerPages.id, pageId)).returning(summaryColumns);
    if (!deleted) throw new NotFoundError(PAGE_MESSAGES.gone);
    await bumpContentVersion(tx);
    await recordAudit(tx, { actor, action: "page.delete", target: { type: "page", id: deleted.id }, summary: `/${deleted.address}` });
    return deleted;
  });
}

/**
 * The page at `/{address}` as the reader may see it: published pages for everyone, drafts only for
 * those who edit pages (a preview); null otherwise, which the route answers with the site's 404.
 */
export async function getReadablePage(db: Db, address: string, actor: Actor | null): Promise<OwnerPage | null> {
  if (address.length > 200) return null;
  const [page] = await db.select(pageColumns).from(ownerPages).where(eq(ownerPages.address, address.toLowerCase()));
  if (!page) return null;
  if (page.published || canEditPageContent(actor)) return page;
  return null;
}

/** Published pages' ids, addresses and dates: the sitemap's entries and the menus' page items. */
export interface PublishedPage {
  id: string;
  address: string;
  updatedAt: Date;
}

export function listPublishedPages(db: Db): Promise<PublishedPage[]> {
  return db
    .select({ id: ownerPages.id, address: ownerPages.address, updatedAt: ownerPages.updatedAt })
    .from(ownerPages)
    .where(eq(ownerPages.published, true))
    .orderBy(asc(ownerPages.address));
}

// ---- Revisions and autosave: the posts' editor components, with the page's own rows ----

export interface PageRevisionItem {
  id: string;
  kind: RevisionKind;
  title: string;
  excerpt: null;
  content: string;
  featuredImageUrl: null;
  featuredImageAlt: null;
  authorEmail: string | null;
  createdAt: Date;
}

/** A page's revisions, newest first, in the shape the editor's revisions dialog reads. */
export async function listPageRevisions(db: Db, actor: Actor | null, id: unknown): Promise<PageRevisionItem[]> {
  authorizePages(actor);
  const pageId = parseOrThrow(pageIdSchema, id);
  const rows = await db
    .select({
      id: ownerPageRevisions.id,
      kind: ownerPageRevisions.kind,
      title: ownerPageRevisions.title,
      content: ownerPageRevisions.content,
      authorEmail: user.email,
      createdAt: ownerPageRevisions.createdAt,
    })
    .from(ownerPageRevisions)
    .leftJoin(user, eq(user.id, ownerPageRevisions.authorId))
    .where(eq(ownerPageRevisions.pageId, pageId))
    .orderBy(desc(ownerPageRevisions.createdAt), desc(ownerPageRevisions.id));
  return rows.map((row) => ({
    ...row,
    kind: row.kind === "schedule" ? "save" : row.kind,
    excerpt: null,
    featuredImageUrl: null,
    featuredImageAlt: null,
  }));
}

const autosaveSchema = z.object({
  pageId: z.preprocess((v) => (v === "" ? undefined : v), pageIdSchema.optional()),
  title: z.string().max(PAGE_LIMITS.title * 2, PAGE_MESSAGES.titleTooLong),
  content: ownerPageInputSchema.shape.content.or(z.literal("")),
  baseVersion: z.preprocess((v) => (v === "" || v === undefined ? undefined : Number(v)), z.number().int().min(1).optional()),
});

export interface PageAutosave {
  title: string;
  content: string;
  baseVersion: number | null;
  updatedAt: Date;
}

/** The editor's unsaved text (one row per author and page, or per author for a new page); never the live page. */
export async function savePageAutosave(db: Db, actor: Actor | null, input: unknown): Promise<void> {
  authorizePages(actor);
  const { pageId, title, content, baseVersion } = parseOrThrow(autosaveSchema, input);
  if (pageId) await findPage(db, pageId);
  const values = { authorId: actor.id, pageId: pageId ?? null, title, content, baseVersion: baseVersion ?? null, updatedAt: new Date() };
  const set = { title, content, baseVersion: values.baseVersion, updatedAt: values.updatedAt };
  await (pageId
    ? db
        .insert(ownerPageAutosaves)
        .values(values)
        .onConflictDoUpdate({
          target: [ownerPageAutosaves.authorId, ownerPageAutosaves.pageId],
          targetWhere: sql`${ownerPageAutosaves.pageId} is not null`,
          set,
        })
    : db
        .insert(ownerPageAutosaves)
        .values(values)
        .onConflictDoUpdate({ target: [ownerPageAutosaves.authorId], targetWhere: sql`${ownerPageAutosaves.pageId} is null`, set }));
}

/** The author's autosave for this page (or for a new page), if any. */
export async function readPageAutosave(db: Db, actor: Actor, pageId: string | null): Promise<PageAutosave | null> {
  const [row] = await db
    .select({
      title: ownerPageAutosaves.title,
      content: ownerPageAutosaves.content,
      baseVersion: ownerPageAutosaves.baseVersion,
      updatedAt: ownerPageAutosaves.updatedAt,
    })
    .from(ownerPageAutosaves)
    .where(
      and(eq(ownerPageAutosaves.authorId, actor.id), pageId ? eq(ownerPageAutosaves.pageId, pageId) : isNull(ownerPageAutosaves.pageId)),
    );
  return row ?? null;
}

/** "Discard": the author's autosave for this page (or the new page) goes. */
export async function discardPageAutosave(db: Db, actor: Actor | null, pageId: string | null): Promise<void> {
  authorizePages(actor);
  await db
    .delete(ownerPageAutosaves)
    .where(
      and(eq(ownerPageAutosaves.authorId, actor.id), pageId ? eq(ownerPageAutosaves.pageId, pageId) : isNull(ownerPageAutosaves.pageId)),
    );
}

// ---- Built-in pages the owner may take offline ----

/** The app_settings row that takes the Hero Mockups design page offline ("false"); none: published. */
export const HERO_MOCKUPS_KEY = "hero_mockups_published";

async function readHeroMockupsPublished(db: Db): Promise<boolean> {
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, HERO_MOCKUPS_KEY));
  return row?.value !== "false";
}

const heroMockupsPerVersion = perContentVersion(readHeroMockupsPublished);

/** Whether /hero-mockups answers (else the site's 404); read per content version. */
export function heroMockupsPublished(db: Db): Promise<boolean> {
  return heroMockupsPerVersion(db);
}

/** The built-in pages the Pages screen lists with a Published switch. */
export async function readBuiltInPages(db: Db, actor: Actor | null): Promise<{ heroMockups: boolean }> {
  authorizePages(actor);
  return { heroMockups: await readHeroMockupsPublished(db) };
}

/** Publishes or unpublishes the Hero Mockups page; audited; public output refreshed. */
export async function setHeroMockupsPublished(db: Db, actor: Actor | null, input: unknown): Promise<boolean> {
  authorizePages(actor);
  const published = parseOrThrow(z.enum(["true", "false"], { error: "Published must be true or false" }), input) === "true";
  await db.transaction(async (tx) => {
    const value = String(published);
    await tx
      .insert(appSettings)
      .values({ key: HERO_MOCKUPS_KEY, value })
      .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedAt: new Date() } });
    await bumpContentVersion(tx);
    await recordAudit(tx, {
      actor,
      action: "page.update",
      target: { type: "page", id: "hero-mockups" },
      summary: `/hero-mockups ${published ? "published" : "unpublished"}`,
    });
  });
  return published;
}
