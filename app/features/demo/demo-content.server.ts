import { and, eq, inArray, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { canManageSettings, type Actor } from "~/lib/permissions";
import { authorize } from "~/server/authorize.server";
import { recordAudit } from "~/server/audit.server";
import { bumpContentVersion, perContentVersion } from "~/server/content-version.server";
import type { Db } from "~/server/db/client.server";
import { blogPosts, positions, projects, testimonials } from "~/server/db/schema.server";
import { DEMO_POSTS, DEMO_PROJECTS } from "~/server/demo-content.server";
import { logger } from "~/server/logger.server";
import { POSITIONS, TESTIMONIALS } from "~/features/pages/content";
import { deletePostsInTransaction } from "~/features/posts/write/posts.server";
import { forgetDemoResume, readSiteSettings } from "~/features/settings/settings.server";
import { DEMO_RESUME_PATH } from "~/features/settings/site-defaults";

/**
 * "Remove demo content" (administrators): the items the first start seeded (SEED_DEMO_CONTENT) that
 * the owner has not edited. An item is demo content when it is exactly as shipped — every field the
 * seed wrote equals the demo text in code — and it is unedited while its updated_at still equals its
 * created_at (every edit sets updated_at; the seed wrote both at once) and, for a post, its version is
 * still 1. Anything the owner changed or created fails one of these and stays.
 */

export const DEMO_FORBIDDEN = "Only administrators can remove the demo content.";

export interface DemoItem {
  id: string;
  title: string;
}

export interface DemoContent {
  posts: (DemoItem & { published: boolean })[];
  projects: DemoItem[];
  testimonials: DemoItem[];
  positions: DemoItem[];
  /** The shipped resume (/resume.pdf) is still the site's resume link. */
  resume: boolean;
}

const unedited = (table: { createdAt: AnyPgColumn; updatedAt: AnyPgColumn }) => sql`${table.updatedAt} = ${table.createdAt}`;
const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);
const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

async function demoPosts(db: Db): Promise<DemoContent["posts"]> {
  const rows = await db
    .select({
      id: blogPosts.id,
      slug: blogPosts.slug,
      title: blogPosts.title,
      category: blogPosts.category,
      excerpt: blogPosts.excerpt,
      content: blogPosts.content,
      published: blogPosts.published,
      featured: blogPosts.featured,
      featuredImageUrl: blogPosts.featuredImageUrl,
      featuredImageAlt: blogPosts.featuredImageAlt,
    })
    .from(blogPosts)
    .where(
      and(
        inArray(
          blogPosts.slug,
          DEMO_POSTS.map((post) => post.slug),
        ),
        eq(blogPosts.version, 1),
        unedited(blogPosts),
      ),
    );
  return rows
    .filter((row) => {
      const demo = DEMO_POSTS.find((post) => post.slug === row.slug);
      return (
        demo !== undefined &&
        row.title === demo.title &&
        row.category === demo.category &&
        same(row.excerpt, demo.excerpt) &&
        row.content === demo.content &&
        row.published === demo.published &&
        row.featured === demo.featured &&
        same(row.featuredImageUrl, demo.featuredImageUrl) &&
        same(row.featuredImageAlt, demo.featuredImageAlt)
      );
    })
    .map((row) => ({ id: row.id, title: row.title, published: row.published }));
}

async function demoProjects(db: Db): Promise<DemoItem[]> {
  const rows = await db
    .select({
      id: projects.id,
      title: projects.title,
      description: projects.description,
      imageUrl: projects.imageUrl,
      type: projects.type,
      url: projects.url,
      featured: projects.featured,
    })
    .from(projects)
    .where(
      and(
        inArray(
          projects.title,
          DEMO_PROJECTS.map((project) => project.title),
        ),
        unedited(projects),
      ),
    );
  return rows
    .filter((row) =>
      DEMO_PROJECTS.some(
        (demo) =>
          demo.title === row.title &&
          demo.description === row.description &&
          same(demo.imageUrl, row.imageUrl) &&
          demo.type === row.type &&
          same(demo.url, row.url) &&
          demo.featured === row.featured,
      ),
    )
    .map((row) => ({ id: row.id, title: row.title }));
}

async function demoTestimonials(db: Db): Promise<DemoItem[]> {
  const rows = await db
    .select({
      id: testimonials.id,
      name: testimonials.name,
      position: testimonials.position,
      company: testimonials.company,
      date: testimonials.date,
      text: testimonials.text,
    })
    .from(testimonials)
    .where(
      and(
        inArray(
          testimonials.name,
          TESTIMONIALS.map((t) => t.name),
        ),
        unedited(testimonials),
      ),
    );
  return rows
    .filter((row) =>
      TESTIMONIALS.some(
        (demo) =>
          demo.name === row.name &&
          demo.position === row.position &&
          same(demo.company, row.company) &&
          demo.date === row.date &&
          demo.text === row.text,
      ),
    )
    .map((row) => ({ id: row.id, title: row.name }));
}

async function demoPositions(db: Db): Promise<DemoItem[]> {
  const rows = await db
    .select({
      id: positions.id,
      title: positions.title,
      company: positions.company,
      period: positions.period,
      location: positions.location,
      description: positions.description,
      bullets: positions.bullets,
    })
    .from(positions)
    .where(
      and(
        inArray(
          positions.company,
          POSITIONS.map((p) => p.company),
        ),
        unedited(positions),
      ),
    );
  return rows
    .filter((row) =>
      POSITIONS.some(
        (demo) =>
          demo.title === row.title &&
          demo.company === row.company &&
          (demo.period ?? "") === row.period &&
          (demo.location ?? "") === row.location &&
          demo.description === row.description &&
          sameList(demo.bullets ?? [], row.bullets),
      ),
    )
    .map((row) => ({ id: row.id, title: `${row.title}, ${row.company}` }));
}

/** What "Remove demo content" would remove now (the confirmation lists it). */
export async function findDemoContent(db: Db): Promise<DemoContent> {
  // One query at a time: inside a transaction they share one connection.
  return {
    posts: await demoPosts(db),
    projects: await demoProjects(db),
    testimonials: await demoTestimonials(db),
    positions: await demoPositions(db),
    resume: (await readSiteSettings(db)).resumeUrl === DEMO_RESUME_PATH,
  };
}

/**
 * Every write to a post bumps the content version (a published one changes public pages, and an
 * edited or removed demo post stops being one only through such a write): the count is kept per
 * version rather than read, with each post's text, on every dashboard load.
 */
const publishedDemoPostsPerVersion = perContentVersion(async (db) => (await demoPosts(db)).filter((post) => post.published).length);

/** How many of the published posts are unedited demo posts (the Getting Started checklist counts only the owner's). */
export function countPublishedDemoPosts(db: Db): Promise<number> {
  return publishedDemoPostsPerVersion(db);
}

export function isDemoContentEmpty(content: DemoContent): boolean {
  return content.posts.length + content.projects.length + content.testimonials.length + content.positions.length === 0 && !content.resume;
}

/** One line for the audit log and the toast: "6 posts, 5 projects, 9 testimonials, 4 roles and the resume". */
export function describeDemoContent(content: DemoContent): string {
  const count = (n: number, one: string, many: string) => (n === 0 ? [] : [`${n} ${n === 1 ? one : many}`]);
  const parts = [
    ...count(content.posts.length, "post", "posts"),
    ...count(content.projects.length, "project", "projects"),
    ...count(content.testimonials.length, "testimonial", "testimonials"),
    ...count(content.positions.length, "role", "roles"),
    ...(content.resume ? ["the resume"] : []),
  ];
  if (parts.length === 0) return "nothing";
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

/**
 * Removes the demo content the owner has not edited, in one transaction with the content version (every
 * cached page is drawn again) and one audit row naming what went. Found again inside the transaction,
 * so an edit saved since the confirmation was shown keeps its item.
 */
export async function removeDemoContent(db: Db, actor: Actor | null): Promise<DemoContent> {
  authorize(actor, canManageSettings, DEMO_FORBIDDEN);
  const removed = await db.transaction(async (tx) => {
    const found = await findDemoContent(tx);
    if (isDemoContentEmpty(found)) return found;
    const ids = (items: DemoItem[]) => items.map((item) => item.id);
    await deletePostsInTransaction(tx, ids(found.posts));
    if (found.projects.length > 0) await tx.delete(projects).where(and(inArray(projects.id, ids(found.projects)), unedited(projects)));
    if (found.testimonials.length > 0)
      await tx.delete(testimonials).where(and(inArray(testimonials.id, ids(found.testimonials)), unedited(testimonials)));
    if (found.positions.length > 0) await tx.delete(positions).where(and(inArray(positions.id, ids(found.positions)), unedited(positions)));
    if (found.resume) await forgetDemoResume(tx);
    await bumpContentVersion(tx);
    await recordAudit(tx, { actor, action: "demo.remove", target: { type: "demo" }, summary: `removed ${describeDemoContent(found)}` });
    return found;
  });
  logger.info({ userId: actor.id, removed: describeDemoContent(removed) }, "demo content removed");
  return removed;
}
