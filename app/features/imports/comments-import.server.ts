import fs from "node:fs";
import { eq } from "drizzle-orm";
import { XMLParser } from "fast-xml-parser";
import { z } from "zod";
import { commentExists, insertImportedComment } from "~/features/comments/comment-import.server";
import { publicSiteUrl } from "~/features/settings/site-url.server";
import type { Db } from "~/server/db/client.server";
import { blogPosts } from "~/server/db/schema.server";
import { ValidationError } from "~/server/errors.server";
import { htmlToMarkdown } from "./ghost-content.server";
import { id, optionalText, optionalTimestamp } from "./import-fields";
import { ImportReport, mappedId, problemOf, readExportFile, reasonOf, writeMapped, type ImportSource } from "./import-core.server";

/**
 * Comments from other blogs: WordPress (the `<wp:comment>` entries of a WXR export) and Ghost (the
 * `comments` table of its JSON export). Each comment is stored once: the mapping remembers it, so a
 * re-run skips it, and what a moderator decided here afterwards stays. Replies keep their thread when
 * their parent was imported; a reply to a comment left out (spam, trash, hidden) starts a thread.
 */
const TABLE = "comments";

/** A comment of the source, read and checked, ready to store. */
interface SourceComment {
  sourceId: string;
  parentSourceId: string | null;
  /** Our post, or why there is none. */
  post: { id: string } | { problem: string };
  name: string;
  email: string;
  url: string;
  markdown: string;
  state: "approved" | "pending";
  ip: string | null;
  createdAt: Date;
}

async function storeComments(db: Db, report: ImportReport, source: ImportSource, list: SourceComment[]): Promise<void> {
  const siteUrl = await publicSiteUrl();
  // Older first: a reply is always younger than what it answers, so its parent is stored before it.
  const ordered = [...list].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.sourceId.localeCompare(b.sourceId));
  for (const c of ordered) {
    if ("problem" in c.post) {
      report.skip(TABLE, c.post.problem);
      continue;
    }
    const postId = c.post.id;
    const ref = `comment ${c.sourceId}`;
    const parent = c.parentSourceId ? await mappedId(db, source, "comment", c.parentSourceId) : null;
    const parentId = parent && (await commentExists(db, parent)) ? parent : null;
    await writeMapped(db, report, {
      source,
      kind: "comment",
      sourceId: c.sourceId,
      table: TABLE,
      ref,
      // Only the identity: a comment imported once is never written again (moderation here wins).
      values: { sourceId: c.sourceId },
      exists: (commentId) => commentExists(db, commentId),
      write: (_existing, after) =>
        insertImportedComment(
          db,
          {
            postId,
            parentId,
            name: c.name,
            email: c.email,
            url: c.url,
            body: c.markdown,
            state: c.state,
            ip: c.ip,
            createdAt: c.createdAt,
          },
          siteUrl,
          after,
        ).catch((error: unknown) => {
          throw error instanceof z.ZodError ? new ValidationError(problemOf(error)) : error;
        }),
    });
  }
}

// ---- WordPress (WXR) ----

/** Tools → Export in WordPress: RSS with the `wp:` namespace; every item and comment read as a list. */
const xml = new XMLParser({
  ignoreAttributes: true,
  processEntities: true,
  htmlEntities: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => name === "item" || name === "wp:comment",
});

const text = z.preprocess((v) => (typeof v === "string" || typeof v === "number" ? String(v) : ""), z.string());

/** WordPress writes "2024-01-15 10:30:00" in UTC in the `_gmt` field, and zeros when it has none. */
const wpDate = z.preprocess(
  (v) =>
    typeof v === "string" && /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(v) && !v.startsWith("0000") ? `${v.replace(" ", "T")}Z` : undefined,
  optionalTimestamp,
);

const wpCommentSchema = z.object({
  "wp:comment_id": id,
  "wp:comment_author": text,
  "wp:comment_author_email": text,
  "wp:comment_author_url": text,
  "wp:comment_author_IP": text,
  "wp:comment_date_gmt": wpDate,
  "wp:comment_date": wpDate,
  "wp:comment_content": text,
  "wp:comment_approved": text,
  "wp:comment_type": text,
  "wp:comment_parent": text,
});

const wpItemSchema = z.object({
  title: text,
  link: text,
  "wp:post_name": text,
  "wp:post_type": text,
  "wp:comment": z.array(z.unknown()).default([]),
});

const wxrSchema = z.object({
  rss: z.object({ channel: z.object({ item: z.array(z.unknown()).default([]) }) }),
});

/**
 * WordPress stores a comment as text with a few HTML tags, its paragraphs separated by blank lines
 * (added when shown): as HTML paragraphs, then Markdown like a Ghost post.
 */
export function wordpressCommentMarkdown(content: string): string {
  const html = content
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .map((p) => `<p>${p.replace(/\n/g, "<br>")}</p>`)
    .join("");
  return htmlToMarkdown(html);
}

/** The post's slug: `wp:post_name`, else the last part of its address (percent-decoded either way). */
function slugOf(item: z.output<typeof wpItemSchema>): string {
  const fromLink = () => {
    try {
      return new URL(item.link).pathname.split("/").filter(Boolean).pop() ?? "";
    } catch {
      return "";
    }
  };
  const raw = item["wp:post_name"] || fromLink();
  try {
    return decodeURIComponent(raw).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

async function postBySlug(db: Db, slug: string): Promise<string | null> {
  if (!slug) return null;
  const [row] = await db.select({ id: blogPosts.id }).from(blogPosts).where(eq(blogPosts.slug, slug)).limit(1);
  return row?.id ?? null;
}

const WP_STATES: Record<string, "approved" | "pending" | undefined> = { "1": "approved", "0": "pending" };

function readWxr(file: string) {
  if (!fs.existsSync(file)) throw new ValidationError(`No such file: ${file}`);
  let doc: unknown;
  try {
    doc = xml.parse(readExportFile(file));
  } catch (error) {
    throw new ValidationError(`${file} is ${error instanceof ValidationError ? error.message : `not valid XML (${reasonOf(error)})`}`);
  }
  const parsed = wxrSchema.safeParse(doc);
  if (!parsed.success) throw new ValidationError(`${file} is not a WordPress export: expected <rss><channel><item>… (Tools → Export)`);
  return parsed.data.rss.channel.item;
}

/** `npm run cli -- import-wordpress-comments <export.xml>`: the comments of a WordPress export, on the posts of the same slug. */
export async function importWordpressComments(db: Db, file: string): Promise<ImportReport> {
  const items = readWxr(file);
  const report = new ImportReport(`Imported comments from the WordPress export ${file}:`);
  report.table(TABLE);
  const list: SourceComment[] = [];
  for (const [index, rawItem] of items.entries()) {
    const item = wpItemSchema.safeParse(rawItem);
    if (!item.success || item.data["wp:comment"].length === 0) continue;
    const slug = slugOf(item.data);
    const postId = item.data["wp:post_type"] === "post" ? await postBySlug(db, slug) : null;
    const post = postId
      ? { id: postId }
      : {
          problem:
            item.data["wp:post_type"] !== "post"
              ? `on a WordPress ${item.data["wp:post_type"] || "item"}, not a post`
              : `no post here with the slug '${slug}' (import the posts first)`,
        };
    for (const rawComment of item.data["wp:comment"]) {
      const parsed = wpCommentSchema.safeParse(rawComment);
      if (!parsed.success) {
        report.skip(TABLE, problemOf(parsed.error), `a comment of item ${index + 1} (${slug})`);
        continue;
      }
      const c = parsed.data;
      const approved = c["wp:comment_approved"];
      const state = WP_STATES[approved];
      if (!state) {
        report.skip(TABLE, approved === "spam" ? "marked spam in WordPress" : "in WordPress's trash");
        continue;
      }
      const type = c["wp:comment_type"];
      if (type !== "" && type !== "comment") {
        report.skip(TABLE, "pingbacks and trackbacks are not imported");
        continue;
      }
      const createdAt = c["wp:comment_date_gmt"] ?? c["wp:comment_date"];
      if (!createdAt) {
        report.skip(TABLE, "its date is missing", `comment ${c["wp:comment_id"]}`);
        continue;
      }
      list.push({
        sourceId: c["wp:comment_id"],
        parentSourceId: c["wp:comment_parent"] && c["wp:comment_parent"] !== "0" ? c["wp:comment_parent"] : null,
        post,
        name: c["wp:comment_author"],
        email: c["wp:comment_author_email"],
        url: c["wp:comment_author_url"],
        markdown: wordpressCommentMarkdown(c["wp:comment_content"]),
        state,
        ip: c["wp:comment_author_IP"] || null,
        createdAt,
      });
    }
  }
  await storeComments(db, report, "wordpress", list);
  return report;
}

// ---- Ghost ----

const ghostCommentSchema = z.object({
  id,
  post_id: id,
  member_id: optionalText,
  parent_id: optionalText,
  status: z.string().default("published"),
  html: z.string().nullish(),
  created_at: optionalTimestamp,
});

export const ghostCommentTables = {
  comments: z.array(z.record(z.string(), z.unknown())).catch([]),
  members: z.array(z.looseObject({ id, email: z.string().nullish(), name: z.string().nullish() })).catch([]),
};

/**
 * The comments of a Ghost export, when it has them (members write them: their name and email come from
 * the export's `members`). Published ones arrive approved; hidden and deleted ones are left out.
 */
export async function importGhostComments(
  db: Db,
  report: ImportReport,
  data: { comments: Record<string, unknown>[]; members: { id: string; email?: string | null; name?: string | null }[] },
): Promise<void> {
  if (data.comments.length === 0) return;
  report.table(TABLE);
  const members = new Map(data.members.map((m) => [m.id, m]));
  const list: SourceComment[] = [];
  for (const [index, raw] of data.comments.entries()) {
    const parsed = ghostCommentSchema.safeParse(raw);
    if (!parsed.success) {
      report.skip(TABLE, problemOf(parsed.error), `comment ${index + 1}`);
      continue;
    }
    const c = parsed.data;
    if (c.status !== "published") {
      report.skip(TABLE, `${c.status} in Ghost`);
      continue;
    }
    const postId = await mappedId(db, "ghost", "post", c.post_id);
    const member = c.member_id ? members.get(c.member_id) : undefined;
    list.push({
      sourceId: c.id,
      parentSourceId: c.parent_id ?? null,
      post: postId ? { id: postId } : { problem: "its post was not imported" },
      name: member?.name ?? "",
      email: member?.email ?? "",
      url: "",
      markdown: htmlToMarkdown(c.html ?? ""),
      state: "approved",
      ip: null,
      createdAt: c.created_at ?? new Date(),
    });
  }
  await storeComments(db, report, "ghost", list);
}
