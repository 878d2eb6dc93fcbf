import { sql } from "drizzle-orm";
import { createSession } from "~/features/auth/session.server";
import { createUser } from "~/features/users/users.server";
import type { Db } from "~/server/db/client.server";
import { blogPosts, comments, contactMessages, mailOutbox, projects } from "~/server/db/schema.server";
import type { Actor } from "~/lib/permissions";
import type { Role } from "~/lib/roles";
import { slugify } from "~/lib/slug";

/**
 * Test data with sensible defaults: each factory takes only what a test cares about. Users go through
 * the domain (password hashing, roles); posts, projects and messages are inserted as rows, so a test
 * can set what the forms never set (createdAt, featured, delivery state).
 */

let sequence = 0;

/** A value unique within the test run, for emails, titles and slugs. */
export function unique(): string {
  sequence += 1;
  return `${Date.now().toString(36)}-${sequence}`;
}

export const TEST_PASSWORD = "factory pass phrase 7";

export interface TestUser {
  id: string;
  email: string;
  password: string;
  role: Role;
  /** The user as the domain functions take them. */
  actor: Actor;
}

/** A user with a role ("user" = no stored role). */
export async function makeUser(
  db: Db,
  overrides: { role?: Role; email?: string; password?: string; name?: string } = {},
): Promise<TestUser> {
  const role = overrides.role ?? "user";
  const email = overrides.email ?? `${role}-${unique()}@test.example`;
  const password = overrides.password ?? TEST_PASSWORD;
  const created = await createUser(db, { email, password, name: overrides.name, roles: role === "user" ? [] : [role] });
  return { id: created.id, email: created.email, password, role, actor: { id: created.id, role } };
}

/** A user with a role and a session: `cookie` is the Cookie header that signs a request in as them. */
export async function signedInAs(db: Db, role: Role = "user"): Promise<TestUser & { userId: string; cookie: string }> {
  const made = await makeUser(db, { role });
  const setCookie = await createSession(db, made.id, new Request("http://localhost/", { headers: { "user-agent": "vitest" } }));
  return { ...made, userId: made.id, cookie: setCookie.split(";")[0] ?? "" };
}

/** A published post in Fun; the slug follows the title unless given; a published one was published when created unless told. */
export async function makePost(db: Db, overrides: Partial<typeof blogPosts.$inferInsert> = {}) {
  const title = overrides.title ?? `Test post ${unique()}`;
  const createdAt = overrides.createdAt ?? new Date();
  const publishedAt = (overrides.published ?? true) ? createdAt : null;
  const [row] = await db
    .insert(blogPosts)
    .values({
      content: "Body",
      category: "Fun",
      published: true,
      createdAt,
      publishedAt,
      ...overrides,
      title,
      slug: overrides.slug ?? slugify(title),
    })
    .returning();
  if (!row) throw new Error("post insert returned no row");
  return row;
}

/** A web project, shown last unless a display order is given. */
export async function makeProject(db: Db, overrides: Partial<typeof projects.$inferInsert> = {}) {
  const [last] = await db.select({ n: sql<number>`coalesce(max(${projects.displayOrder}), -1)::int` }).from(projects);
  const [row] = await db
    .insert(projects)
    .values({
      title: `Test project ${unique()}`,
      description: "A test project",
      type: "web",
      displayOrder: (last?.n ?? -1) + 1,
      ...overrides,
    })
    .returning();
  if (!row) throw new Error("project insert returned no row");
  return row;
}

/** What a visitor types into the contact form (the body of POST /api/send-contact-email, without the verification token). */
export function contactForm(overrides: Partial<{ name: string; email: string; message: string }> = {}) {
  return { name: "Ada Lovelace", email: "ada@example.com", message: `Hello ${unique()}`, ...overrides };
}

/** A stored contact message, pending delivery unless told otherwise. */
/** A stored contact message; with `delivery`, also its email in the outbox in that state. */
export async function makeContactMessage(
  db: Db,
  { delivery, ...overrides }: Partial<typeof contactMessages.$inferInsert> & { delivery?: Partial<typeof mailOutbox.$inferInsert> } = {},
) {
  const [mail] = delivery
    ? await db
        .insert(mailOutbox)
        .values({ kind: "contact.forward", recipient: "owner@example.com", ...delivery })
        .returning({ id: mailOutbox.id })
    : [];
  const [row] = await db
    .insert(contactMessages)
    .values({ ...contactForm(), legacyDeliveryState: "sent", ...(mail ? { mailId: mail.id } : {}), ...overrides })
    .returning();
  if (!row) throw new Error("contact message insert returned no row");
  return row;
}

/** A reader's comment on a post (approved unless told). */
export async function makeComment(db: Db, postId: string, overrides: Partial<typeof comments.$inferInsert> = {}) {
  const body = overrides.body ?? `A comment ${unique()}`;
  const [row] = await db
    .insert(comments)
    .values({
      postId,
      authorName: "Reader",
      authorEmail: `reader-${unique()}@comments.example`,
      bodyHtml: `<p>${body}</p>`,
      state: "approved",
      ...overrides,
      body,
    })
    .returning({ id: comments.id, authorEmail: comments.authorEmail });
  if (!row) throw new Error("comment insert returned no row");
  return row;
}
