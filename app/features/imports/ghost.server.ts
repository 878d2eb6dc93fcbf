import fs from "node:fs";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { createImportedPost, importedPostExists, updateImportedPost } from "~/features/posts/write/post-import.server";
import { postInputSchema } from "~/features/posts/write/post-schema";
import { parseCategory, type Category } from "~/lib/categories";
import type { Db } from "~/server/db/client.server";
import { user } from "~/server/db/schema.server";
import { ValidationError } from "~/server/errors.server";
import { ghostCommentTables, importGhostComments } from "./comments-import.server";
import { ghostBodyToMarkdown } from "./ghost-content.server";
import { flag, id, optionalText, optionalTimestamp } from "./import-fields";
import {
  importActor,
  ImportReport,
  imageRestorer,
  parseExportJson,
  problemOf,
  readExportFile,
  reasonOf,
  writeMapped,
  type ImageRestorer,
} from "./import-core.server";

/**
 * `npm run cli -- import-ghost <export.json>`: the posts of a Ghost export (Settings → Labs → Export).
 * Tags become categories through the owner's map (a tag named like a category needs none). Its
 * comments, when the export has them, come along on the posts they were on.
 */
const GHOST_URL = "__GHOST_URL__";
const TABLE = "posts";

const ghostPostSchema = z.object({
  id,
  title: postInputSchema.shape.title,
  slug: optionalText,
  html: z.string().nullish(),
  lexical: z.string().nullish(),
  mobiledoc: z.string().nullish(),
  custom_excerpt: postInputSchema.shape.excerpt,
  feature_image: optionalText,
  feature_image_alt: optionalText,
  featured: flag,
  type: z.string().default("post"),
  status: z.string().default("draft"),
  published_at: optionalTimestamp,
  created_at: optionalTimestamp,
  updated_at: optionalTimestamp,
  author_id: optionalText,
});

const row = z.record(z.string(), z.unknown());
const exportData = z.object({
  posts: z.array(row).default([]),
  tags: z.array(z.looseObject({ id, name: z.string().default(""), slug: z.string().default("") })).catch([]),
  posts_tags: z.array(z.looseObject({ post_id: id, tag_id: id, sort_order: z.number().default(0) })).catch([]),
  users: z.array(z.looseObject({ id, email: z.string().default("") })).catch([]),
  posts_authors: z.array(z.looseObject({ post_id: id, author_id: id, sort_order: z.number().default(0) })).catch([]),
  ...ghostCommentTables,
});
type ExportData = z.output<typeof exportData>;

/** `{db: [{meta, data}]}` as Ghost writes it, or just `{data}`. */
const exportFile = z.union([
  z.object({ db: z.array(z.object({ data: exportData })).min(1) }).transform((f) => f.db[0]?.data),
  z.object({ data: exportData }).transform((f) => f.data),
]);

function readExport(file: string): ExportData {
  if (!fs.existsSync(file)) throw new ValidationError(`No such file: ${file}`);
  let json: unknown;
  try {
    json = parseExportJson(readExportFile(file));
  } catch (error) {
    throw new ValidationError(`${file} is ${reasonOf(error)}`);
  }
  const parsed = exportFile.safeParse(json);
  if (!parsed.success || !parsed.data)
    throw new ValidationError(`${file} is not a Ghost export: expected {"db": [{"data": {"posts": […]}}]}`);
  return parsed.data;
}

export interface GhostOptions {
  as?: string;
  /** Tag name or slug → category (any letter case; 'Friendship' reads as Friends). */
  tagMap?: Record<string, string>;
  defaultCategory?: string;
  /** The old site's address: resolves __GHOST_URL__ and lets its /content/images/ be copied here. */
  ghostUrl?: string;
}

function categoryOption(value: string, what: string): Category {
  const found = parseCategory(value);
  if (!found)
    throw new ValidationError(
      `${what}: '${value}' is not one of the seven categories (Faith, Finance, Fitness, Fun, Friends, Family, Figurehead).`,
    );
  return found;
}

/** Tags → category: the map (by name or slug), else a tag named like a category. Ghost's internal #tags never count. */
function categoryResolver(data: ExportData, options: GhostOptions) {
  const map = new Map<string, Category>();
  for (const [tag, value] of Object.entries(options.tagMap ?? {})) map.set(tag.trim().toLowerCase(), categoryOption(value, `Tag '${tag}'`));
  const fallback = options.defaultCategory ? categoryOption(options.defaultCategory, "--default-category") : null;
  const tags = new Map(data.tags.map((t) => [t.id, t]));
  const byPost = new Map<string, { name: string; slug: string; order: number }[]>();
  for (const link of data.posts_tags) {
    const tag = tags.get(link.tag_id);
    if (!tag || tag.name.startsWith("#")) continue;
    const list = byPost.get(link.post_id) ?? [];
    list.push({ name: tag.name, slug: tag.slug, order: link.sort_order });
    byPost.set(link.post_id, list);
  }
  return (postId: string): { category: Category } | { problem: string } => {
    const postTags = (byPost.get(postId) ?? []).sort((a, b) => a.order - b.order);
    for (const tag of postTags) {
      const found = map.get(tag.name.toLowerCase()) ?? map.get(tag.slug.toLowerCase()) ?? parseCategory(tag.name);
      if (found) return { category: found };
    }
    if (fallback) return { category: fallback };
    const names = postTags.map((t) => t.name).join(", ");
    return {
      problem: `${names ? `no category for its tags (${names})` : "it has no tags"}: map them with --map or --tag TAG=CATEGORY, or pass --default-category`,
    };
  };
}

async function authorResolver(db: Db, data: ExportData, fallbackId: string) {
  const emails = new Map(data.users.map((u) => [u.id, u.email.trim().toLowerCase()]));
  const primary = new Map<string, string>();
  for (const link of [...data.posts_authors].sort((a, b) => b.sort_order - a.sort_order)) primary.set(link.post_id, link.author_id);
  const ours = new Map<string, string>();
  return async (postId: string, authorId: string | undefined): Promise<string> => {
    const email = emails.get(primary.get(postId) ?? authorId ?? "");
    if (!email) return fallbackId;
    if (!ours.has(email)) {
      const [found] = await db.select({ id: user.id }).from(user).where(eq(user.email, email)).limit(1);
      ours.set(email, found?.id ?? fallbackId);
    }
    return ours.get(email) ?? fallbackId;
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

interface ImageContext {
  images: ImageRestorer;
  ghostUrl: string | null;
  /** The old site's own images, copied here; other sites' images stay where they are. */
  ownImages: RegExp | null;
}

async function featureImage(ctx: ImageContext, report: ImportReport, raw: string | undefined, ref: string): Promise<string | null> {
  if (!raw) return null;
  const url = ctx.ghostUrl ? raw.split(GHOST_URL).join(ctx.ghostUrl) : raw;
  if (!/^https?:\/\//i.test(url)) {
    report.note(`${ref}: feature image ${raw} left out (pass --ghost-url to fetch it).`);
    return null;
  }
  return ctx.images.restore(url);
}

async function body(ctx: ImageContext, markdown: string): Promise<string> {
  const resolved = ctx.ghostUrl ? markdown.split(GHOST_URL).join(ctx.ghostUrl) : markdown;
  return ctx.ownImages ? ctx.images.restoreIn(resolved, ctx.ownImages) : resolved;
}

/** What Ghost's status means here: scheduled stays scheduled while its time is ahead; 'sent' (newsletter only) was public. */
function stateOf(status: string, publishedAt: Date | undefined, now: Date) {
  if (status === "published" || status === "sent") return { published: true, scheduledAt: null };
  if (status === "scheduled" && publishedAt && publishedAt > now) return { published: false, scheduledAt: publishedAt };
  return { published: false, scheduledAt: null };
}

const bodySchema = z.object({ content: postInputSchema.shape.content, featuredImageUrl: postInputSchema.shape.featuredImageUrl });

export async function importGhost(db: Db, file: string, options: GhostOptions = {}): Promise<ImportReport> {
  const data = readExport(file);
  const categoryOf = categoryResolver(data, options);
  const actor = await importActor(db, options.as);
  const authorOf = await authorResolver(db, data, actor.id);
  const report = new ImportReport(`Imported from the Ghost export ${file} (as ${actor.email}):`);
  report.table(TABLE);
  const ghostUrl = options.ghostUrl?.replace(/\/+$/, "") ?? null;
  if (ghostUrl && !/^https?:\/\/[^/\s]+/i.test(ghostUrl))
    throw new ValidationError(`--ghost-url must be the old site's address, like https://blog.example.com`);
  const ctx: ImageContext = {
    images: imageRestorer(db, actor, "ghost", report),
    ghostUrl,
    ownImages: ghostUrl ? new RegExp(`${escapeRegExp(ghostUrl)}/content/images/[^\\s"'()<>\\]]+`, "g") : null,
  };
  const now = new Date();
  for (const [index, raw] of data.posts.entries()) {
    const ref = `post ${index + 1}${typeof raw.slug === "string" ? ` (${raw.slug})` : ""}`;
    const parsed = ghostPostSchema.safeParse(raw);
    if (!parsed.success) {
      report.skip(TABLE, problemOf(parsed.error), ref);
      continue;
    }
    const post = parsed.data;
    if (post.type !== "post") {
      report.skip(TABLE, "Ghost pages are not imported (only posts)");
      continue;
    }
    const category = categoryOf(post.id);
    if ("problem" in category) {
      report.skip(TABLE, category.problem, ref);
      continue;
    }
    let markdown: string;
    try {
      markdown = await body(ctx, ghostBodyToMarkdown(post));
    } catch (error) {
      report.skip(TABLE, `its content could not be read (${reasonOf(error)})`, ref);
      continue;
    }
    if (markdown.includes(GHOST_URL))
      report.note(`${ref}: addresses starting ${GHOST_URL} kept as they are (pass --ghost-url to resolve them).`);
    const checked = bodySchema.safeParse({ content: markdown, featuredImageUrl: await featureImage(ctx, report, post.feature_image, ref) });
    if (!checked.success) {
      report.skip(TABLE, problemOf(checked.error), ref);
      continue;
    }
    const createdAt = post.created_at ?? post.published_at ?? now;
    const state = stateOf(post.status, post.published_at, now);
    const values = {
      title: post.title,
      content: checked.data.content,
      excerpt: post.custom_excerpt,
      featuredImageUrl: checked.data.featuredImageUrl,
      featuredImageAlt: post.feature_image_alt ?? null,
      category: category.category,
      ...state,
      featured: post.featured,
      slug: post.slug ?? null,
      authorId: await authorOf(post.id, post.author_id),
      createdAt,
      updatedAt: post.updated_at ?? createdAt,
      publishedAt: state.published ? (post.published_at ?? createdAt) : null,
    };
    await writeMapped(db, report, {
      source: "ghost",
      kind: "post",
      sourceId: post.id,
      table: TABLE,
      ref,
      values,
      exists: (postId) => importedPostExists(db, postId),
      write: (postId, after) =>
        postId
          ? updateImportedPost(db, actor, postId, values, after).then((r) => r.id)
          : createImportedPost(db, actor, values, after).then((r) => r.id),
    });
  }
  await importGhostComments(db, report, data);
  return report;
}
