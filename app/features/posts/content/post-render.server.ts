import { and, eq, inArray, isNull, or } from "drizzle-orm";
import { z } from "zod";
import { canCreatePost, type Actor } from "~/lib/permissions";
import { authorize } from "~/server/authorize.server";
import type { Db } from "~/server/db/client.server";
import { blogPosts, uploads } from "~/server/db/schema.server";
import { getEnv } from "~/server/env.server";
import { parseOrThrow } from "~/server/errors.server";
import { logger } from "~/server/logger.server";
import { warmUpHighlighter } from "./code-highlight.server";
import { knownImagesFromUploads } from "./markdown-images.server";
import type { Root as MdastRoot } from "mdast";
import { parseMarkdown, releaseParser } from "./markdown-parse.server";
import { renderMarkdownCached, renderMarkdownTree, uploadImageUrlsIn, type RenderedMarkdown } from "./markdown.server";
import { CONTENT_MAX, POST_MESSAGES } from "../write/post-schema";

const UPLOADS_PREFIX = "/uploads/";

export interface PostBody {
  html: string;
  text: string;
}

/** Our uploads a Markdown source shows, as the renderer's size/srcset lookup. */
async function knownImagesIn(db: Db, tree: MdastRoot, siteUrl: string) {
  const keys = uploadImageUrlsIn(tree, siteUrl).map((url) => url.slice(UPLOADS_PREFIX.length));
  if (keys.length === 0) return new Map();
  const rows = await db
    .select({ storageKey: uploads.storageKey, width: uploads.width, height: uploads.height, variants: uploads.variants, alt: uploads.alt })
    .from(uploads)
    .where(inArray(uploads.storageKey, keys));
  return knownImagesFromUploads(rows);
}

/**
 * A post's content rendered as the post page shows it: called once per save (the result is stored in
 * content_html / content_text). `cached` is for the editor preview, which renders the same text often.
 */
export async function renderPostBody(db: Db, content: string, { cached = false } = {}): Promise<RenderedMarkdown> {
  const siteUrl = getEnv().publicUrl;
  const tree = await parseMarkdown(content);
  const options = { siteUrl, images: await knownImagesIn(db, tree, siteUrl) };
  return cached ? renderMarkdownCached(content, options, tree) : renderMarkdownTree(tree, options);
}

const previewSchema = z.object({ content: z.string().max(CONTENT_MAX, POST_MESSAGES.contentTooLong) });

/**
 * The editor's Preview: the text rendered by the same renderer the save uses, so the preview is what
 * the post page will show. Staff only (whoever may write posts); cached, as authors flip tabs often.
 */
export async function previewPostBody(db: Db, actor: Actor | null, input: unknown): Promise<{ html: string }> {
  authorize(actor, canCreatePost, "You don't have permission to write posts.");
  const { content } = parseOrThrow(previewSchema, input);
  const rendered = await renderPostBody(db, content, { cached: true });
  return { html: rendered.html };
}

/** The stored rendering, or (for a row the start-up backfill has not reached yet) one rendered now. */
export async function postBodyOf(
  db: Db,
  post: { content: string; contentHtml: string | null; contentText: string | null },
): Promise<PostBody> {
  if (post.contentHtml !== null && post.contentText !== null) return { html: post.contentHtml, text: post.contentText };
  const rendered = await renderPostBody(db, post.content, { cached: true });
  return { html: rendered.html, text: rendered.text };
}

/**
 * Renders every post stored without its HTML (rows from before this column, seeds, restores). Runs at
 * start-up off the request path; several instances may run it at once: each write only fills a row
 * whose content is still the one it rendered.
 */
export async function backfillRenderedPosts(db: Db): Promise<number> {
  const rows = await db
    .select({ id: blogPosts.id, content: blogPosts.content })
    .from(blogPosts)
    .where(or(isNull(blogPosts.contentHtml), isNull(blogPosts.contentText)));
  let done = 0;
  for (const row of rows) {
    const rendered = await renderPostBody(db, row.content);
    await db
      .update(blogPosts)
      .set({ contentHtml: rendered.html, contentText: rendered.text })
      .where(and(eq(blogPosts.id, row.id), eq(blogPosts.content, row.content)));
    done++;
  }
  if (done > 0) {
    logger.info({ posts: done }, "rendered stored posts");
    await releaseParser();
  }
  return done;
}

/**
 * Loads the highlighter in the background when an editor opens, so neither its first preview nor its
 * first save of code waits for it. Not at start-up: it costs ~20 MB resident, which a process that
 * only serves pages never needs. Its grammars are loaded and compiled when a post first names them
 * (docs/decisions/0040-server-memory.md).
 */
export function warmRenderer(): void {
  warmUpHighlighter().catch((error: unknown) => logger.warn({ err: error }, "loading the code highlighter failed"));
}
