import fs from "node:fs";
import path from "node:path";
import { parse as parseCsv } from "csv-parse/sync";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { MEDIA_KINDS, mediaItemSchema } from "~/features/media/media";
import { createImportedPost, importedPostExists, updateImportedPost, writeImportedMedia } from "~/features/posts/write/post-import.server";
import { postInputSchema } from "~/features/posts/write/post-schema";
import { projectExists, writeImportedProject } from "~/features/projects/project-import.server";
import { projectInputSchema } from "~/features/projects/project-schema";
import { grantRole, getStoredRoles } from "~/features/users/users.server";
import { isStoredRole } from "~/lib/roles";
import type { Db } from "~/server/db/client.server";
import { blogMedia, user } from "~/server/db/schema.server";
import { ValidationError } from "~/server/errors.server";
import { category, flag, id, optionalText, optionalTimestamp, order } from "./import-fields";
import {
  importActor,
  ImportReport,
  imageRestorer,
  mappedId,
  problemOf,
  reasonOf,
  userExists,
  writeMapped,
  type ImageRestorer,
} from "./import-core.server";

/**
 * `npm run cli -- import-supabase <dir>`: the original hosted system's table exports (SPEC §3), as the
 * Supabase dashboard writes them (blog_posts.csv or blog_posts_rows.csv) or as JSON arrays.
 */
const TABLES = ["blog_posts", "blog_media", "projects", "user_roles"] as const;
type Table = (typeof TABLES)[number];

/** Public URLs of the old storage bucket: https://{project}.supabase.co/storage/v1/object/public/blog-images/… */
const BUCKET_URL = /https?:\/\/[^\s"'()<>\]]+\/storage\/v1\/object\/public\/blog-images\/[^\s"'()<>\]]+/g;

function isBucketUrl(url: string): boolean {
  return new RegExp(`^${BUCKET_URL.source}$`).test(url);
}

const postRow = z.object({
  id,
  title: postInputSchema.shape.title,
  slug: optionalText,
  content: postInputSchema.shape.content,
  excerpt: postInputSchema.shape.excerpt,
  featured_image_url: postInputSchema.shape.featuredImageUrl,
  category,
  published: flag,
  featured: flag,
  author_id: optionalText,
  created_at: optionalTimestamp,
  updated_at: optionalTimestamp,
});

const mediaRow = z.object({
  id,
  post_id: id,
  media_type: z.preprocess(
    (v) => (typeof v === "string" ? v.trim().toLowerCase() : v),
    z.enum(MEDIA_KINDS, { error: "must be youtube, vimeo, video or image" }),
  ),
  media_url: z.string({ error: "is missing" }),
  caption: optionalText,
  display_order: order,
});

const projectRow = z.object({
  id,
  title: z.string({ error: "Title is required" }),
  description: z.preprocess((v) => v ?? "", z.string()),
  image_url: z.preprocess((v) => v ?? "", z.string()),
  type: z.preprocess((v) => (typeof v === "string" ? v.trim().toLowerCase() : v), z.string({ error: "Type must be Web or Other" })),
  url: z.preprocess((v) => v ?? "", z.string()),
  featured: flag,
  display_order: order,
  created_at: optionalTimestamp,
});

const roleRow = z.object({
  user_id: id,
  role: z.preprocess((v) => (typeof v === "string" ? v.trim().toLowerCase() : v), z.string({ error: "is missing" })),
  email: optionalText,
});

type RawRow = Record<string, unknown>;

function findExport(dir: string, table: Table): string | null {
  for (const name of [`${table}.json`, `${table}.csv`, `${table}_rows.json`, `${table}_rows.csv`]) {
    const file = path.join(dir, name);
    if (fs.existsSync(file)) return file;
  }
  return null;
}

/** The rows of one export file; a file that cannot be read at all throws with the reason. */
function readRows(file: string): RawRow[] {
  const text = fs.readFileSync(file, "utf8");
  if (file.endsWith(".json")) {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new ValidationError(`not valid JSON (${error instanceof Error ? error.message : String(error)})`);
    }
    const rows = z.array(z.record(z.string(), z.unknown())).safeParse(data);
    if (!rows.success) throw new ValidationError("expected a JSON array of rows (objects)");
    return rows.data;
  }
  try {
    return z
      .array(z.record(z.string(), z.unknown()))
      .parse(parseCsv(text, { columns: true, bom: true, skip_empty_lines: true, relax_column_count: true, relax_quotes: true }));
  } catch (error) {
    throw new ValidationError(`not a readable CSV file (${error instanceof Error ? error.message : String(error)})`);
  }
}

interface Context {
  db: Db;
  report: ImportReport;
  images: ImageRestorer;
  actor: Awaited<ReturnType<typeof importActor>>;
}

/** How the summary names a row: its line in a CSV file (the header is line 1), or its index in a JSON array. */
function rowRef(file: string, index: number, sourceId?: unknown): string {
  const where = file.endsWith(".csv") ? `line ${index + 2}` : `row ${index + 1}`;
  return typeof sourceId === "string" || typeof sourceId === "number" ? `${where} (id ${sourceId})` : where;
}

async function restoreImage(images: ImageRestorer, url: string | null): Promise<string | null> {
  return url && isBucketUrl(url) ? images.restore(url) : url;
}

async function importPosts(ctx: Context, file: string, rows: RawRow[]) {
  for (const [index, raw] of rows.entries()) {
    const parsed = postRow.safeParse(raw);
    if (!parsed.success) {
      ctx.report.skip("blog_posts", problemOf(parsed.error), rowRef(file, index, raw.id));
      continue;
    }
    const row = parsed.data;
    const createdAt = row.created_at ?? new Date();
    const post = {
      title: row.title,
      content: await ctx.images.restoreIn(row.content, BUCKET_URL),
      excerpt: row.excerpt,
      featuredImageUrl: await restoreImage(ctx.images, row.featured_image_url),
      featuredImageAlt: null,
      category: row.category,
      published: row.published,
      featured: row.featured,
      slug: row.slug ?? null,
      authorId: row.author_id && (await userExists(ctx.db, row.author_id)) ? row.author_id : ctx.actor.id,
      createdAt,
      updatedAt: row.updated_at ?? createdAt,
      // The old system had no separate publication date: a published post is dated by its creation.
      publishedAt: row.published ? createdAt : null,
      scheduledAt: null,
    };
    await writeMapped(ctx.db, ctx.report, {
      source: "supabase",
      kind: "post",
      sourceId: row.id,
      table: "blog_posts",
      ref: rowRef(file, index, row.id),
      values: post,
      exists: (postId) => importedPostExists(ctx.db, postId),
      write: (postId, after) =>
        postId
          ? updateImportedPost(ctx.db, ctx.actor, postId, post, after).then((r) => r.id)
          : createImportedPost(ctx.db, ctx.actor, post, after).then((r) => r.id),
    });
  }
}

async function mediaExists(db: Db, mediaId: string): Promise<boolean> {
  const [row] = await db.select({ id: blogMedia.id }).from(blogMedia).where(eq(blogMedia.id, mediaId)).limit(1);
  return row !== undefined;
}

async function importMedia(ctx: Context, file: string, rows: RawRow[]) {
  for (const [index, raw] of rows.entries()) {
    const ref = rowRef(file, index, raw.id);
    const parsed = mediaRow.safeParse(raw);
    if (!parsed.success) {
      ctx.report.skip("blog_media", problemOf(parsed.error), ref);
      continue;
    }
    const row = parsed.data;
    const item = mediaItemSchema.safeParse({ mediaType: row.media_type, mediaUrl: row.media_url, caption: row.caption });
    if (!item.success) {
      ctx.report.skip("blog_media", problemOf(item.error), ref);
      continue;
    }
    const postId = await mappedId(ctx.db, "supabase", "post", row.post_id);
    if (!postId || !(await importedPostExists(ctx.db, postId))) {
      ctx.report.skip("blog_media", `its post ${row.post_id} was not imported`, ref);
      continue;
    }
    const media = {
      postId,
      mediaType: item.data.mediaType,
      mediaUrl:
        item.data.mediaType === "image" ? ((await restoreImage(ctx.images, item.data.mediaUrl)) ?? item.data.mediaUrl) : item.data.mediaUrl,
      caption: item.data.caption ?? null,
      displayOrder: row.display_order,
    };
    await writeMapped(ctx.db, ctx.report, {
      source: "supabase",
      kind: "media",
      sourceId: row.id,
      table: "blog_media",
      ref,
      values: media,
      exists: (mediaId) => mediaExists(ctx.db, mediaId),
      write: (mediaId, after) => writeImportedMedia(ctx.db, ctx.actor, mediaId, media, after),
    });
  }
}

async function importProjects(ctx: Context, file: string, rows: RawRow[]) {
  for (const [index, raw] of rows.entries()) {
    const ref = rowRef(file, index, raw.id);
    const parsed = projectRow.safeParse(raw);
    if (!parsed.success) {
      ctx.report.skip("projects", problemOf(parsed.error), ref);
      continue;
    }
    const row = parsed.data;
    const input = projectInputSchema.safeParse({
      title: row.title,
      description: row.description,
      imageUrl: row.image_url,
      type: row.type,
      url: row.url,
      featured: row.featured,
    });
    if (!input.success) {
      ctx.report.skip("projects", problemOf(input.error), ref);
      continue;
    }
    const project = {
      ...input.data,
      featured: row.featured,
      imageUrl: await restoreImage(ctx.images, input.data.imageUrl),
      displayOrder: row.display_order,
      createdAt: row.created_at ?? new Date(),
    };
    await writeMapped(ctx.db, ctx.report, {
      source: "supabase",
      kind: "project",
      sourceId: row.id,
      table: "projects",
      ref,
      values: project,
      exists: (projectId) => projectExists(ctx.db, projectId),
      write: (projectId, after) => writeImportedProject(ctx.db, ctx.actor, projectId, project, after),
    });
  }
}

async function findUser(db: Db, userId: string, email: string | undefined) {
  const [byId] = await db.select({ id: user.id, email: user.email }).from(user).where(eq(user.id, userId)).limit(1);
  if (byId || !email) return byId ?? null;
  const [byEmail] = await db.select({ id: user.id, email: user.email }).from(user).where(eq(user.email, email.toLowerCase())).limit(1);
  return byEmail ?? null;
}

/** Roles go to the users who already have an account here (same id, or same email when the export has one). */
async function importRoles(ctx: Context, file: string, rows: RawRow[]) {
  for (const [index, raw] of rows.entries()) {
    const ref = rowRef(file, index, raw.user_id);
    const parsed = roleRow.safeParse(raw);
    if (!parsed.success) {
      ctx.report.skip("user_roles", problemOf(parsed.error), ref);
      continue;
    }
    const { role, user_id: userId, email } = parsed.data;
    if (!isStoredRole(role)) {
      ctx.report.skip("user_roles", `role '${role}' is not admin or moderator`, ref);
      continue;
    }
    try {
      const found = await findUser(ctx.db, userId, email);
      if (!found) {
        ctx.report.skip(
          "user_roles",
          `no user here with id ${userId}${email ? ` or email ${email}` : ""}; create the account, then run again`,
          ref,
        );
        continue;
      }
      if ((await getStoredRoles(ctx.db, found.id)).includes(role)) {
        ctx.report.skip("user_roles", `${found.email} already has the role`);
        continue;
      }
      await grantRole(ctx.db, found.email, role, ctx.actor);
      ctx.report.count("user_roles", "created");
    } catch (error) {
      ctx.report.skip("user_roles", reasonOf(error), ref);
    }
  }
}

const IMPORTERS: Record<Table, (ctx: Context, file: string, rows: RawRow[]) => Promise<void>> = {
  blog_posts: importPosts,
  blog_media: importMedia,
  projects: importProjects,
  user_roles: importRoles,
};

export async function importSupabase(db: Db, dir: string, options: { as?: string } = {}): Promise<ImportReport> {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new ValidationError(`No such directory: ${dir}`);
  const actor = await importActor(db, options.as);
  const report = new ImportReport(`Imported from the Supabase export in ${dir} (as ${actor.email}):`);
  const ctx: Context = { db, report, images: imageRestorer(db, actor, "supabase", report), actor };
  for (const table of TABLES) {
    report.table(table);
    const file = findExport(dir, table);
    if (!file) {
      report.note(`${table}: no ${table}.csv or ${table}.json in the directory; nothing imported.`);
      continue;
    }
    let rows: RawRow[];
    try {
      rows = readRows(file);
    } catch (error) {
      report.note(`${table}: ${path.basename(file)} is ${reasonOf(error)}; nothing imported from it.`);
      continue;
    }
    await IMPORTERS[table](ctx, file, rows);
  }
  return report;
}
