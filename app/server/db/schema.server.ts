import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import { CATEGORIES } from "~/lib/categories";
import { PROJECT_TYPES } from "~/lib/project-types";
import { STORED_ROLES } from "~/lib/roles";

/** PostgreSQL's full-text document type; drizzle has no built-in for it. */
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));

// ---- Authentication (better-auth's tables, written here so one migration set covers everything) ----

export const user = pgTable("user", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  /** Set by an administrator: the user cannot sign in and has no sessions until enabled again. */
  disabledAt: timestamp("disabled_at", { withTimezone: true }),
  /** Areas an administrator opened to this moderator beyond the role (GRANTABLE_AREAS in app/lib/permissions.ts). */
  grants: text("grants")
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const session = pgTable(
  "session",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    /** Refreshed at most once a minute by getSessionUser, for the sessions list on /admin/account. */
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
  },
  (t) => [index("session_user_id_idx").on(t.userId)],
);

export const account = pgTable(
  "account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("account_user_id_idx").on(t.userId)],
);

/**
 * A staff member's authenticator app (TOTP). The secret is encrypted with the app secret; enabledAt is
 * null while the setup waits for its first code. lastUsedStep is the last 30-second step accepted, so a
 * code cannot be replayed within its window.
 */
export const twoFactor = pgTable("two_factor", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  secretEncrypted: text("secret_encrypted").notNull(),
  enabledAt: timestamp("enabled_at", { withTimezone: true }),
  lastUsedStep: bigint("last_used_step", { mode: "number" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Single-use recovery codes, stored hashed; a used one keeps its row with usedAt set. */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [index("recovery_codes_user_id_idx").on(t.userId)],
);

/**
 * A password that was right, waiting for the second factor: single use, short-lived, found by the hash
 * of the token in a signed httpOnly cookie. No session exists until it is completed.
 */
export const signInChallenges = pgTable(
  "sign_in_challenges",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("sign_in_challenges_expires_idx").on(t.expiresAt)],
);

/**
 * A staff member's passkey (WebAuthn credential): a second factor, and a way to sign in without a password.
 * `id` is the credential ID (base64url) the authenticator names; the public key is COSE, base64url.
 */
export const passkeys = pgTable(
  "passkeys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    publicKey: text("public_key").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    transports: text("transports").array().notNull().default([]),
    deviceType: text("device_type").notNull(),
    backedUp: boolean("backed_up").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [index("passkeys_user_id_idx").on(t.userId)],
);

/**
 * A WebAuthn challenge handed to a browser, kept in the database so any instance can check the answer:
 * single use (deleted when answered), short-lived. `userId` is null for a passwordless sign-in, where the
 * passkey says who it is.
 */
export const webauthnChallenges = pgTable(
  "webauthn_challenges",
  {
    challenge: text("challenge").primaryKey(),
    purpose: text("purpose", { enum: ["register", "sign-in", "second-factor"] }).notNull(),
    userId: text("user_id").references(() => user.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("webauthn_challenges_expires_idx").on(t.expiresAt)],
);

export const verification = pgTable(
  "verification",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("verification_identifier_idx").on(t.identifier)],
);

// ---- Roles ----

export const userRoles = pgTable(
  "user_roles",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    role: text("role", { enum: STORED_ROLES }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("user_roles_user_role_idx").on(t.userId, t.role),
    check("user_roles_role_check", sql`${t.role} in (${inList(STORED_ROLES)})`),
  ],
);

// ---- Blog ----

export const blogPosts = pgTable(
  "blog_posts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    title: text("title").notNull(),
    slug: text("slug").notNull().unique(),
    content: text("content").notNull(),
    /** `content` rendered from Markdown at save; null until the start-up backfill renders an older row. */
    contentHtml: text("content_html"),
    /** The rendered post's visible text: reading time, summaries, JSON-LD articleBody. */
    contentText: text("content_text"),
    excerpt: text("excerpt"),
    featuredImageUrl: text("featured_image_url"),
    /** Alt text of the featured image; publishing requires it when there is a featured image. */
    featuredImageAlt: text("featured_image_alt"),
    category: text("category", { enum: CATEGORIES }).notNull(),
    published: boolean("published").notNull().default(false),
    featured: boolean("featured").notNull().default(false),
    authorId: text("author_id").references(() => user.id, { onDelete: "set null" }),
    // When the post was first published: what readers see and listings order by (kept on unpublish).
    publishedAt: timestamp("published_at", { withTimezone: true }),
    // A draft waiting for the posts.publish job; null when not scheduled.
    scheduledAt: timestamp("scheduled_at", { withTimezone: true }),
    // Optimistic concurrency: every save must name the version it was based on.
    version: integer("version").notNull().default(1),
    // 'Publish and email subscribers': the author's choice, applied when the post goes live (now or by the scheduler).
    emailOnPublish: boolean("email_on_publish").notNull().default(false),
    // When the post was handed to its subscribers, and to how many: set once, so a post is emailed at most once, ever.
    emailedAt: timestamp("emailed_at", { withTimezone: true }),
    emailedCount: integer("emailed_count"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    // Search: stored, so ranking reads it instead of parsing every matching post again.
    // Title weighs most (A), then excerpt (B), then the body (C); English stemming.
    searchVector: tsvector("search_vector")
      .notNull()
      .generatedAlwaysAs(
        sql`setweight(to_tsvector('english', coalesce("title", '')), 'A') || setweight(to_tsvector('english', coalesce("excerpt", '')), 'B') || setweight(to_tsvector('english', coalesce("content", '')), 'C')`,
      ),
  },
  (t) => [
    check("blog_posts_category_check", sql`${t.category} in (${inList(CATEGORIES)})`),
    // Category listing, related posts, previous/next: published posts of one category, newest first
    // (id breaks ties). Every listing's ORDER BY names the NULLS LAST that `.desc()` gives.
    index("blog_posts_category_published_at_id_idx").on(t.category, t.published, t.publishedAt.desc(), t.id.desc()),
    // Featured article and teaser: published, featured first, newest first.
    index("blog_posts_published_featured_at_idx").on(t.published, t.featured.desc(), t.publishedAt.desc()),
    // Blog management's 'Scheduled' filter and count.
    index("blog_posts_scheduled_idx")
      .on(t.scheduledAt)
      .where(sql`${t.scheduledAt} is not null`),
    // Admin list ordered by last update.
    index("blog_posts_updated_id_idx").on(t.updatedAt.desc(), t.id.desc()),
    // RSS of the whole blog: published posts by date.
    index("blog_posts_published_at_id_idx").on(t.published, t.publishedAt.desc(), t.id.desc()),
    // Blog management filtered to published or drafts, by last update; scheduled_at so the drafts
    // filter (not published, not scheduled) is decided in the index: an index-only scan.
    index("blog_posts_published_updated_id_idx").on(t.published, t.updatedAt.desc(), t.id.desc(), t.scheduledAt),
    // The sitemap's newest change per category.
    index("blog_posts_category_published_updated_idx").on(t.category, t.published, t.updatedAt.desc()),
    // Blog management by date (the date readers see) and by title (A to Z, ignoring case): a keyset
    // page reads one of these from its cursor on, in the list's own order (posts.server.ts ADMIN_ORDERS).
    index("blog_posts_shown_date_id_idx").on(sql`coalesce(${t.publishedAt}, ${t.createdAt}) desc nulls last`, t.id.desc()),
    index("blog_posts_title_id_idx").on(sql`lower(${t.title})`, t.id),
    // ... and by status: drafts, then scheduled posts soonest first, then published (posts.server.ts ADMIN_ORDERS).
    index("blog_posts_status_order_idx").on(
      sql`(not ${t.published}) desc nulls last`,
      sql`(${t.scheduledAt} is null) desc nulls last`,
      sql`('9999-12-31 00:00:00+00'::timestamptz - coalesce(${t.scheduledAt}, '9999-12-31 00:00:00+00'::timestamptz)) desc nulls last`,
      t.updatedAt.desc(),
      t.id.desc(),
    ),
    // Blog management's 'Scheduled' filter, by last update.
    index("blog_posts_scheduled_updated_id_idx")
      .on(t.published, t.updatedAt.desc(), t.id.desc())
      .where(sql`${t.scheduledAt} is not null`),
    // Sitemap files: a range of published posts' ids, with every column a file shows (category, slug,
    // updated_at), so reading a file is an index-only scan, not a table row per post.
    index("blog_posts_published_id_idx").on(t.published, t.id, t.category, t.slug, t.updatedAt),
    index("blog_posts_author_idx").on(t.authorId),
    // Search's GIN indexes take each write directly: with fastupdate (the default) writes wait in a
    // pending list of up to 4 MB that every search reads whole until a vacuum merges it, and PGlite
    // has no autovacuum (at 100,000 posts: ~420 pages read for a word in 139 posts).
    // With each post's publication day as codes (drizzle/0025_18-era-sql.sql), so that a search of the
    // newest posts reads only their part of a common word's posting list.
    index("blog_posts_search_idx")
      .using("gin", t.searchVector, sql`search_era(${t.publishedAt})`)
      .with({ fastupdate: false }),
    // Phrase search: each post's adjacent pairs of words, as codes (drizzle/0022_18-phrase-pairs.sql).
    index("blog_posts_search_pairs_idx")
      .using("gin", sql`search_pair_codes(${t.searchVector})`)
      .with({ fastupdate: false }),
  ],
);

/**
 * How many posts there are of each kind (category, published, scheduled): the listings', sitemap's
 * and dashboard's counts read these few rows instead of counting 100,000 posts. Derived data, kept
 * exact by triggers on blog_posts in the writing transaction (drizzle/0021_14-db100k-counts.sql), so
 * every write path (saves, the publish job, imports, restores, tests' factories) keeps it true; it is
 * left out of backups (DERIVED_TABLES) as a restore rebuilds it.
 */
export const postCounts = pgTable(
  "post_counts",
  {
    category: text("category", { enum: CATEGORIES }).notNull(),
    published: boolean("published").notNull(),
    /** Not published and waiting for the publish job (scheduled_at is set). */
    scheduled: boolean("scheduled").notNull(),
    n: integer("n").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.category, t.published, t.scheduled] })],
);

/**
 * An address a post answered at before its category or slug changed: it answers 301 to the post's
 * current address forever. Rows point at the post, never at another address, so redirects never
 * chain; a post that takes an address later removes the row. The oldest row of a post is its first
 * address, which stays its RSS guid.
 */
export const postRedirects = pgTable(
  "post_redirects",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    category: text("category", { enum: CATEGORIES }).notNull(),
    slug: text("slug").notNull(),
    postId: uuid("post_id")
      .notNull()
      .references(() => blogPosts.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("post_redirects_category_check", sql`${t.category} in (${inList(CATEGORIES)})`),
    // One post per old address; slug first, as an address is looked up by its slug.
    uniqueIndex("post_redirects_slug_category_idx").on(t.slug, t.category),
    index("post_redirects_post_created_idx").on(t.postId, t.createdAt),
  ],
);

export const MEDIA_TYPES = ["youtube", "vimeo", "video", "image"] as const;

export const blogMedia = pgTable(
  "blog_media",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    postId: uuid("post_id")
      .notNull()
      .references(() => blogPosts.id, { onDelete: "cascade" }),
    mediaType: text("media_type", { enum: MEDIA_TYPES }).notNull(),
    mediaUrl: text("media_url").notNull(),
    caption: text("caption"),
    /** Alt text of an image item; publishing requires it for images. */
    alt: text("alt"),
    displayOrder: integer("display_order").notNull().default(0),
    uploadId: uuid("upload_id").references(() => uploads.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("blog_media_type_check", sql`${t.mediaType} in (${inList(MEDIA_TYPES)})`),
    index("blog_media_post_order_idx").on(t.postId, t.displayOrder),
  ],
);

export const REVISION_KINDS = ["save", "publish", "unpublish", "schedule"] as const;

/** A post as it was after one save, publish or unpublish (the newest POST_REVISIONS_KEEP per post are kept). */
export const postRevisions = pgTable(
  "post_revisions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    postId: uuid("post_id")
      .notNull()
      .references(() => blogPosts.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: REVISION_KINDS }).notNull(),
    title: text("title").notNull(),
    excerpt: text("excerpt"),
    content: text("content").notNull(),
    featuredImageUrl: text("featured_image_url"),
    featuredImageAlt: text("featured_image_alt"),
    authorId: text("author_id").references(() => user.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("post_revisions_kind_check", sql`${t.kind} in (${inList(REVISION_KINDS)})`),
    index("post_revisions_post_created_idx").on(t.postId, t.createdAt.desc()),
  ],
);

/**
 * Unsaved editor text, one row per author and post (edit mode) or per author and category (create
 * mode, post_id null): never the live post, until the author saves.
 */
export const postAutosaves = pgTable(
  "post_autosaves",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    authorId: text("author_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    postId: uuid("post_id").references(() => blogPosts.id, { onDelete: "cascade" }),
    category: text("category", { enum: CATEGORIES }).notNull(),
    title: text("title").notNull(),
    excerpt: text("excerpt").notNull(),
    content: text("content").notNull(),
    featuredImageUrl: text("featured_image_url").notNull(),
    featuredImageAlt: text("featured_image_alt").notNull().default(""),
    // The post version the text was typed over (edit mode).
    baseVersion: integer("base_version"),
    // The form's other fields (category, slug, switches, media, schedule), as the editor sent them;
    // null for rows saved before autosave covered them. Read back through autosaveDetailsSchema.
    details: jsonb("details"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("post_autosaves_author_post_idx")
      .on(t.authorId, t.postId)
      .where(sql`${t.postId} is not null`),
    uniqueIndex("post_autosaves_author_category_new_idx")
      .on(t.authorId, t.category)
      .where(sql`${t.postId} is null`),
  ],
);

// ---- Uploaded files (images in the blog-images bucket) ----

export const uploads = pgTable(
  "uploads",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    bucket: text("bucket").notNull().default("blog-images"),
    /** Storage key of the original, e.g. {userId}/{timestamp}-{random}.{ext} */
    storageKey: text("storage_key").notNull().unique(),
    contentType: text("content_type").notNull(),
    byteSize: integer("byte_size").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    /** Resized WebP variants: [{ width, key, byteSize }] */
    variants: jsonb("variants").$type<{ width: number; key: string; byteSize: number }[]>().notNull().default([]),
    originalName: text("original_name"),
    /** The file's alt text, kept once for every place that uses it: the default alt when it is inserted. */
    alt: text("alt").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** When the orphan sweep last found the file in use (null: never checked). */
    checkedAt: timestamp("checked_at", { withTimezone: true }),
  },
  (t) => [index("uploads_user_idx").on(t.userId), index("uploads_checked_at_idx").on(t.checkedAt)],
);

// ---- Projects ----

export const projects = pgTable(
  "projects",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    imageUrl: text("image_url"),
    type: text("type", { enum: PROJECT_TYPES }).notNull(),
    url: text("url"),
    featured: boolean("featured").notNull().default(false),
    displayOrder: integer("display_order").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("projects_type_check", sql`${t.type} in (${inList(PROJECT_TYPES)})`),
    index("projects_display_order_idx").on(t.displayOrder),
    index("projects_type_featured_created_idx").on(t.type, t.featured.desc(), t.createdAt.desc()),
  ],
);

// ---- Outgoing email: one durable outbox for every message the site sends (app/server/mail) ----

/** pending: waiting for its (next) attempt; skipped: not sent because email is not set up or nothing is left to send. */
export const MAIL_STATES = ["pending", "sending", "sent", "failed", "skipped"] as const;
export type MailState = (typeof MAIL_STATES)[number];

/**
 * One row per email. The content is rendered when it is sent, from `payload` (never a secret: a
 * reset link's token is made at send time), so the row doubles as the mail log.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The registered mail kind that renders it (e.g. "contact.forward"). */
    kind: text("kind").notNull(),
    recipient: text("recipient").notNull(),
    payload: jsonb("payload").notNull().default({}),
    state: text("state", { enum: MAIL_STATES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(8),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    /** The claim holding the lease; only its holder may settle the row. */
    lockedBy: text("locked_by"),
    lastError: text("last_error"),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    /** The same logical email enqueued twice is stored once while the first row exists. */
    dedupeKey: text("dedupe_key").unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [
    check("mail_outbox_state_check", sql`${t.state} in (${inList(MAIL_STATES)})`),
    index("mail_outbox_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.state} = 'pending'`),
    index("mail_outbox_lease_idx")
      .on(t.lockedUntil)
      .where(sql`${t.state} = 'sending'`),
    index("mail_outbox_created_idx").on(t.createdAt.desc()),
    index("mail_outbox_attempt_idx").on(t.lastAttemptAt.desc()),
  ],
);

// ---- Contact messages (stored first, emailed to the owner through the mail outbox) ----

export const contactMessages = pgTable(
  "contact_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Client-generated id; a retried submission with the same id stores one message. */
    clientId: text("client_id").unique(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    message: text("message").notNull(),
    ipAddress: text("ip_address"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Its email to the owner; the inbox shows that row's delivery state. */
    mailId: uuid("mail_id").references(() => mailOutbox.id, { onDelete: "set null" }),
    handledAt: timestamp("handled_at", { withTimezone: true }),
    // Expand/contract (docs/decisions/0067-rolling-upgrade-test.md): the delivery columns of the release
    // before the mail outbox, kept while it may still run beside this one, and dropped one release later.
    // It stores "pending" and delivers such rows itself; this release stores "sent" so that loop leaves
    // its messages alone, and adopts the previous release's undelivered ones (adoptPreviousReleaseMessages).
    legacyDeliveryState: text("delivery_state").notNull().default("pending"),
    legacyAttempts: integer("attempts").notNull().default(0),
    legacyLastError: text("last_error"),
    legacyNextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    legacyLockedUntil: timestamp("locked_until", { withTimezone: true }),
    legacyDeliveredAt: timestamp("delivered_at", { withTimezone: true }),
  },
  (t) => [
    index("contact_messages_created_idx").on(t.createdAt.desc()),
    index("contact_messages_mail_idx").on(t.mailId),
    index("contact_messages_outbox_idx").on(t.legacyDeliveryState, t.legacyNextAttemptAt),
  ],
);

// ---- Email subscriptions (app/features/subscriptions) ----

export const SUBSCRIBER_STATES = ["pending", "confirmed", "unsubscribed"] as const;

/**
 * One row per address (stored lower-cased). Nothing is sent to a 'pending' address but its
 * confirmation email; only the confirmation link's hash is stored, with its expiry.
 */
export const subscribers = pgTable(
  "subscribers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    categories: text("categories").array().notNull(),
    state: text("state", { enum: SUBSCRIBER_STATES }).notNull().default("pending"),
    confirmTokenHash: text("confirm_token_hash"),
    confirmExpiresAt: timestamp("confirm_expires_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true }),
  },
  (t) => [
    check("subscribers_state_check", sql`${t.state} in (${inList(SUBSCRIBER_STATES)})`),
    check("subscribers_categories_check", sql`${t.categories} <@ array[${inList(CATEGORIES)}]::text[]`),
    uniqueIndex("subscribers_email_idx").on(t.email),
    uniqueIndex("subscribers_confirm_token_idx").on(t.confirmTokenHash),
    // Who gets a post: confirmed subscribers of its category.
    index("subscribers_categories_idx").using("gin", t.categories),
  ],
);

/**
 * One row per post and subscriber once its email is being sent: the guard that makes the email go
 * out at most once, even after the job's row is pruned and the post is published again.
 */
export const newsletterSends = pgTable(
  "newsletter_sends",
  {
    postId: uuid("post_id")
      .notNull()
      .references(() => blogPosts.id, { onDelete: "cascade" }),
    subscriberId: uuid("subscriber_id")
      .notNull()
      .references(() => subscribers.id, { onDelete: "cascade" }),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.postId, t.subscriberId] }), index("newsletter_sends_subscriber_idx").on(t.subscriberId)],
);

// ---- Infrastructure shared by several features ----

/** Fixed-window counters for rate limits, shared by every instance through the database. */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  resetAt: timestamp("reset_at", { withTimezone: true }).notNull(),
});

/** Human-verification tokens already used (single use), kept until they would have expired anyway. */
export const usedVerificationTokens = pgTable(
  "used_verification_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("used_verification_tokens_expires_idx").on(t.expiresAt)],
);

/** Small key/value settings the app generates for itself (e.g. the session signing secret, seed marker). */
export const appSettings = pgTable("app_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

// ---- Background work (app/server/jobs; docs/decisions/0020-jobs.md) ----

export const JOB_STATES = ["pending", "running", "done", "failed"] as const;

/** One row per background job; claimed with FOR UPDATE SKIP LOCKED under a lease (locked_until). */
export const jobs = pgTable(
  "jobs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").notNull(),
    payload: jsonb("payload").notNull().default({}),
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    state: text("state", { enum: JOB_STATES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(5),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    /** The claim that holds the lease; only its holder may settle the job. */
    lockedBy: text("locked_by"),
    lastError: text("last_error"),
    /** The same logical job enqueued twice is stored once (e.g. "publish:<post id>"). */
    dedupeKey: text("dedupe_key").unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    check("jobs_state_check", sql`${t.state} in (${inList(JOB_STATES)})`),
    index("jobs_due_idx")
      .on(t.runAt)
      .where(sql`${t.state} = 'pending'`),
    index("jobs_lease_idx")
      .on(t.lockedUntil)
      .where(sql`${t.state} = 'running'`),
    index("jobs_finished_idx")
      .on(t.finishedAt)
      .where(sql`${t.state} in ('done', 'failed')`),
  ],
);

/** Recurring singleton tasks: one row per task, whose lease lets one instance at a time run it. */
export const taskLeases = pgTable("task_leases", {
  name: text("name").primaryKey(),
  nextRunAt: timestamp("next_run_at", { withTimezone: true }).notNull().defaultNow(),
  lockedUntil: timestamp("locked_until", { withTimezone: true }),
  lockedBy: text("locked_by"),
  lastStartedAt: timestamp("last_started_at", { withTimezone: true }),
  lastFinishedAt: timestamp("last_finished_at", { withTimezone: true }),
  lastError: text("last_error"),
});

/** Per-kind pacing shared by every instance: the next free start slot of a rate-limited job kind. */
export const jobPacing = pgTable("job_pacing", {
  kind: text("kind").primaryKey(),
  nextSlotAt: timestamp("next_slot_at", { withTimezone: true }).notNull(),
});

/** One row (id = 1): bumped in the same transaction as every write that changes public output. */
export const contentVersion = pgTable(
  "content_version",
  {
    id: integer("id").primaryKey().default(1),
    version: bigint("version", { mode: "number" }).notNull().default(0),
  },
  (t) => [check("content_version_single_row", sql`${t.id} = 1`)],
);

// ---- Page content edited in the admin (app/features/pages) ----

/** The Testimonials page's cards, in display order; hidden ones stay in the admin only. */
export const testimonials = pgTable(
  "testimonials",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    /** The person's job title ("role" in code means a permission role). */
    position: text("position").notNull(),
    company: text("company"),
    date: text("date").notNull().default(""),
    text: text("text").notNull(),
    hidden: boolean("hidden").notNull().default(false),
    displayOrder: integer("display_order").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("testimonials_display_order_idx").on(t.displayOrder)],
);

/** The Recent Roles timeline, in display order ("position": a job; a "role" in code is a permission role). */
export const positions = pgTable(
  "positions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    title: text("title").notNull(),
    company: text("company").notNull(),
    period: text("period").notNull().default(""),
    location: text("location").notNull().default(""),
    description: text("description").notNull().default(""),
    bullets: text("bullets")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    displayOrder: integer("display_order").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("positions_display_order_idx").on(t.displayOrder)],
);

// ---- The owner's own pages (app/features/owner-pages; docs/decisions/0069-owner-pages.md) ----

/**
 * A page the owner wrote, answered at `/{address}` (one lower-case segment that no route or reserved
 * word takes). Markdown like a post's, rendered at save; visitors see it only while published.
 */
export const ownerPages = pgTable(
  "owner_pages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    title: text("title").notNull(),
    address: text("address").notNull().unique(),
    content: text("content").notNull(),
    /** `content` rendered from Markdown at save, by the posts' renderer. */
    contentHtml: text("content_html").notNull(),
    metaTitle: text("meta_title"),
    metaDescription: text("meta_description"),
    published: boolean("published").notNull().default(false),
    /** Readers may comment under the page (off unless the owner turns it on). */
    commentsEnabled: boolean("comments_enabled").notNull().default(false),
    // Optimistic concurrency, as for posts: a save names the version it was based on.
    version: integer("version").notNull().default(1),
    authorId: text("author_id").references(() => user.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("owner_pages_published_idx").on(t.published, t.address)],
);

/** A page as it was after one save, publish or unpublish (the newest POST_REVISIONS_KEEP per page are kept). */
export const ownerPageRevisions = pgTable(
  "owner_page_revisions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    pageId: uuid("page_id")
      .notNull()
      .references(() => ownerPages.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: REVISION_KINDS }).notNull(),
    title: text("title").notNull(),
    content: text("content").notNull(),
    authorId: text("author_id").references(() => user.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("owner_page_revisions_kind_check", sql`${t.kind} in (${inList(REVISION_KINDS)})`),
    index("owner_page_revisions_page_created_idx").on(t.pageId, t.createdAt.desc()),
  ],
);

/** Unsaved editor text of a page, one row per author and page (page_id null: a new page). */
export const ownerPageAutosaves = pgTable(
  "owner_page_autosaves",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    authorId: text("author_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    pageId: uuid("page_id").references(() => ownerPages.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    content: text("content").notNull(),
    baseVersion: integer("base_version"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("owner_page_autosaves_author_page_idx")
      .on(t.authorId, t.pageId)
      .where(sql`${t.pageId} is not null`),
    uniqueIndex("owner_page_autosaves_author_new_idx")
      .on(t.authorId)
      .where(sql`${t.pageId} is null`),
  ],
);

// ---- Audit log (app/server/audit.server.ts; docs/decisions/0027-audit-log.md) ----

/**
 * One row per staff write, sign-in outcome and account-security change. The actor's email is copied
 * at the time (a later rename or deletion does not rewrite history), so there is no foreign key.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    /** Insertion order: timestamps can tie, the list must not reorder between pages. */
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    actorId: text("actor_id"),
    actorEmail: text("actor_email"),
    action: text("action").notNull(),
    targetType: text("target_type"),
    targetId: text("target_id"),
    summary: text("summary").notNull().default(""),
    ip: text("ip"),
  },
  (t) => [
    index("audit_log_created_idx").on(t.createdAt),
    index("audit_log_actor_idx").on(sql`lower(${t.actorEmail})`, t.id.desc()),
    index("audit_log_action_idx").on(t.action, t.id.desc()),
  ],
);

// ---- Imports (app/features/imports; `npm run cli -- import-supabase | import-ghost | import-wordpress-comments`) ----

/**
 * What an import created for each row of the source, so a re-run updates or skips instead of creating
 * again. `checksum` is the source row's hash at the last import: an unchanged row is skipped.
 */
export const importMappings = pgTable(
  "import_mappings",
  {
    /** "supabase", "ghost" or "wordpress". */
    source: text("source").notNull(),
    /** "post", "media", "project", "role", "comment" or "image" (sourceId is then the image's old URL). */
    kind: text("kind").notNull(),
    sourceId: text("source_id").notNull(),
    /** Our row's id, or for an image the URL of its re-stored copy. */
    targetId: text("target_id").notNull(),
    checksum: text("checksum").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.source, t.kind, t.sourceId] })],
);

// ---- Visitor statistics (app/features/analytics; docs/decisions/0047-visitor-statistics.md) ----

/**
 * The day's secret for visitor ids, one row per day in UTC so every instance hashes alike; rows older
 * than two days are deleted, after which no stored id can be tied to a later one.
 */
export const analyticsSalts = pgTable("analytics_salts", {
  day: text("day").primaryKey(),
  salt: text("salt").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One row per counted page view (kept ANALYTICS_RAW_DAYS). No address and no User-Agent: only what
 * they were classified into, and ids that are a salted hash (visitor) or random (visit).
 */
export const analyticsViews = pgTable(
  "analytics_views",
  {
    /** The view's minute (seconds dropped). */
    minute: timestamp("minute", { withTimezone: true }).notNull(),
    path: text("path").notNull(),
    referrerHost: text("referrer_host"),
    /** Only for search engines (their query-less paths); null otherwise. */
    referrerPath: text("referrer_path"),
    utmSource: text("utm_source"),
    utmMedium: text("utm_medium"),
    utmCampaign: text("utm_campaign"),
    country: text("country"),
    device: text("device").notNull(),
    browser: text("browser").notNull(),
    os: text("os").notNull(),
    visitorId: bigint("visitor_id", { mode: "bigint" }).notNull(),
    visitId: bigint("visit_id", { mode: "bigint" }).notNull(),
    /** Identical views of one flush (same minute, page, referrer, visitor and visit) are one row with their count. */
    views: integer("views").notNull().default(1),
  },
  (t) => [index("analytics_views_minute_idx").on(t.minute), index("analytics_views_visitor_idx").on(t.visitorId, t.minute)],
);

/** A rollup row's figures (analytics_daily and analytics_daily_filtered). */
const rollupFigures = () => ({
  views: integer("views").notNull(),
  visitors: integer("visitors").notNull(),
  visits: integer("visits").notNull(),
  /** Visits of one view (the 'total' and 'entry' rows). */
  bounces: integer("bounces").notNull().default(0),
  /** The median visit length that day, in seconds (the 'total' row). */
  medianVisitSeconds: integer("median_visit_seconds").notNull().default(0),
});

/**
 * Daily totals kept forever, per dimension ('total', 'page', 'entry', 'referrer', 'campaign',
 * 'country', 'device', 'browser', 'os') and value, for the day in the site's time zone. A day is
 * rebuilt whole from the raw views (delete then insert in one transaction), so re-running it gives
 * the same numbers.
 */
export const analyticsDaily = pgTable(
  "analytics_daily",
  {
    day: text("day").notNull(),
    dimension: text("dimension").notNull(),
    value: text("value").notNull(),
    ...rollupFigures(),
  },
  (t) => [primaryKey({ columns: [t.day, t.dimension, t.value] }), index("analytics_daily_dimension_idx").on(t.dimension, t.day)],
);

/**
 * A whole month's sums of analytics_daily (month: YYYY-MM), so that a report over months adds a
 * dozen rows per value instead of one per day (docs/decisions/0090-analytics-monthly-sums.md).
 * Written only for a month whose every day is rolled up, and rebuilt in the transaction that rolls
 * up any of its days again, so it always equals the sum of the month's daily rows. `visit_seconds`
 * is the sum of each day's median × visits, from which a report weighs the median over days exactly
 * as it does with daily rows.
 */
export const analyticsMonthly = pgTable(
  "analytics_monthly",
  {
    month: text("month").notNull(),
    dimension: text("dimension").notNull(),
    value: text("value").notNull(),
    views: bigint("views", { mode: "number" }).notNull(),
    visitors: bigint("visitors", { mode: "number" }).notNull(),
    visits: bigint("visits", { mode: "number" }).notNull(),
    bounces: bigint("bounces", { mode: "number" }).notNull(),
    visitSeconds: bigint("visit_seconds", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.month, t.dimension, t.value] })],
);

/** A filtered rollup row's key: the day, the filter (dimension and value) and the row's dimension and value. */
const filteredRowKey = () => ({
  day: text("day").notNull(),
  filterDimension: text("filter_dimension").notNull(),
  filterValue: text("filter_value").notNull(),
  dimension: text("dimension").notNull(),
  value: text("value").notNull(),
});

/**
 * The daily rollup of every filtered report, kept as long as the raw views (ANALYTICS_RAW_DAYS): for
 * each filter dimension ('page', 'entry', 'referrer', …) and value seen that day, the rows a report
 * filtered on it shows ('total' and one per value of every dimension), as analytics_daily has for the
 * unfiltered report. Built with analytics_daily by the same rollup of the day.
 */
export const analyticsDailyFiltered = pgTable("analytics_daily_filtered", { ...filteredRowKey(), ...rollupFigures() }, (t) => [
  primaryKey({ name: "analytics_daily_filtered_pk", columns: [t.filterDimension, t.filterValue, t.day, t.dimension, t.value] }),
  index("analytics_daily_filtered_day_idx").on(t.day),
]);

/**
 * The day so far, folded (docs/decisions/0084-analytics-today-folds.md): for a day not yet rolled up
 * (today), the figures of every view before the day's `folded_until` (analytics_partial_days), per
 * filter ('' and '' unfiltered, else as analytics_daily_filtered) and dimension, as the rollups have
 * them, plus 'length' rows (value: a visit length in seconds, visits: how many visits are that
 * long) from which the day's median is exact. Every figure adds up over disjoint sets of visitors,
 * so a fold adds what its visitors bring and takes back what they had brought before. Deleted when
 * the day is rolled up.
 */
export const analyticsPartial = pgTable(
  "analytics_partial",
  {
    ...filteredRowKey(),
    views: integer("views").notNull(),
    visitors: integer("visitors").notNull(),
    visits: integer("visits").notNull(),
    bounces: integer("bounces").notNull().default(0),
  },
  (t) => [primaryKey({ name: "analytics_partial_pk", columns: [t.day, t.filterDimension, t.filterValue, t.dimension, t.value] })],
);

/** How far each not-yet-rolled-up day is folded into analytics_partial: every view before `folded_until`. */
export const analyticsPartialDays = pgTable("analytics_partial_days", {
  day: text("day").primaryKey(),
  foldedUntil: timestamp("folded_until", { withTimezone: true }).notNull(),
});

/** Views not counted because an instance's per-minute cap was reached (the report shows it as sampling). */
export const analyticsDropped = pgTable("analytics_dropped", {
  minute: timestamp("minute", { withTimezone: true }).primaryKey(),
  views: integer("views").notNull(),
});

/** Days (site time zone) whose rollup has run; a day is rolled once it is over. */
export const analyticsRolledDays = pgTable("analytics_rolled_days", {
  day: text("day").primaryKey(),
  rolledAt: timestamp("rolled_at", { withTimezone: true }).notNull().defaultNow(),
  /** The day's filtered rollup (analytics_daily_filtered) is there: set by the rollup, cleared when the raw days expire. */
  filtered: boolean("filtered").notNull().default(false),
});

export const CONVERSION_KINDS = ["contact", "subscription", "booking"] as const;

/**
 * A conversion and where its visit came from. `at` is null until it counts (a subscription counts
 * once confirmed). One row per subject; kept forever (it names no person, only the subject's id).
 */
export const analyticsConversions = pgTable(
  "analytics_conversions",
  {
    kind: text("kind", { enum: CONVERSION_KINDS }).notNull(),
    subjectId: uuid("subject_id").notNull(),
    at: timestamp("at", { withTimezone: true }),
    entryPath: text("entry_path"),
    referrerHost: text("referrer_host"),
    utmSource: text("utm_source"),
    utmCampaign: text("utm_campaign"),
    lastPostPath: text("last_post_path"),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.subjectId] }),
    check("analytics_conversions_kind_check", sql`${t.kind} in (${inList(CONVERSION_KINDS)})`),
    index("analytics_conversions_at_idx").on(t.at),
  ],
);
// ---- Comments (app/features/comments) ----

export const COMMENT_STATES = ["pending", "approved", "spam"] as const;
export type CommentState = (typeof COMMENT_STATES)[number];
/** What a Webmention says of the post: an answer is shown in the thread, the others under "Mentions". */
export const MENTION_KINDS = ["reply", "like", "repost", "mention"] as const;
export type MentionKind = (typeof MENTION_KINDS)[number];

/**
 * Readers' comments on posts, whatever their origin. `body` is the Markdown the reader wrote and
 * `bodyHtml` its rendering (comment-markdown.server.ts), stored so the page never renders on a read.
 * The email is never shown; it links the comment to its author (comment_authors: confirmed, auto-approved) and gets reply mail.
 */
export const comments = pgTable(
  "comments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** What the comment is on: a post, or one of the owner's pages (exactly one of the two). */
    postId: uuid("post_id").references(() => blogPosts.id, { onDelete: "cascade" }),
    pageId: uuid("page_id").references(() => ownerPages.id, { onDelete: "cascade" }),
    parentId: uuid("parent_id").references((): AnyPgColumn => comments.id, { onDelete: "cascade" }),
    authorName: text("author_name").notNull(),
    /** Lower-cased; never shown. */
    authorEmail: text("author_email").notNull(),
    authorUrl: text("author_url"),
    /** Set when a signed-in staff member wrote it: shown with "Author". */
    authorUserId: text("author_user_id").references(() => user.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    bodyHtml: text("body_html").notNull(),
    state: text("state", { enum: COMMENT_STATES }).notNull().default("pending"),
    /** Why the filters held it or called it spam (shown to moderators). */
    reason: text("reason"),
    /** The Bayesian filter's spam probability when it arrived (0–1). */
    spamScore: real("spam_score"),
    ipAddress: text("ip_address"),
    /** The reader asked for an email when someone replies. */
    notifyReplies: boolean("notify_replies").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    approvedAt: timestamp("approved_at", { withTimezone: true }),
    /** For a Webmention: the page that mentions the post (the author's email is then empty). */
    sourceUrl: text("source_url"),
    /** For a Webmention: what the source does with the post. */
    mentionKind: text("mention_kind", { enum: MENTION_KINDS }),
    /** For a reply from the fediverse (ActivityPub): the author's handle, user@host. */
    fediverseHandle: text("fediverse_handle"),
    /** A remote author's picture (the actor's icon, the h-card's photo) as they gave it: fetched once by a job, never shown. */
    authorPhotoUrl: text("author_photo_url"),
    /** Our copy of that picture (a storage key under blog-images/avatars/), shown instead of initials once made. */
    authorAvatarKey: text("author_avatar_key"),
  },
  (t) => [
    check("comments_state_check", sql`${t.state} in (${inList(COMMENT_STATES)})`),
    check("comments_mention_kind_check", sql`${t.mentionKind} is null or ${t.mentionKind} in (${inList(MENTION_KINDS)})`),
    check("comments_subject_check", sql`(${t.postId} is null) <> (${t.pageId} is null)`),
    // One mention per source and post: a new Webmention from the same source updates it.
    uniqueIndex("comments_post_source_idx").on(t.postId, t.sourceUrl),
    index("comments_post_state_created_idx").on(t.postId, t.state, t.createdAt),
    index("comments_page_state_created_idx").on(t.pageId, t.state, t.createdAt),
    index("comments_state_created_idx").on(t.state, t.createdAt.desc()),
    index("comments_email_state_idx").on(t.authorEmail, t.state),
    index("comments_parent_idx").on(t.parentId),
  ],
);

/** "host" refuses a whole instance or site; "actor" one fediverse account (its actor address). */
export const COMMENT_BLOCK_KINDS = ["email", "ip", "keyword", "host", "actor"] as const;
export type CommentBlockKind = (typeof COMMENT_BLOCK_KINDS)[number];

/** The owner's block list: a comment matching any entry is marked spam on arrival. */
export const commentBlocks = pgTable(
  "comment_blocks",
  {
    kind: text("kind", { enum: COMMENT_BLOCK_KINDS }).notNull(),
    /** Lower-cased; an "ip" entry is an address or a CIDR range. */
    value: text("value").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.value] }),
    check("comment_blocks_kind_check", sql`${t.kind} in (${inList(COMMENT_BLOCK_KINDS)})`),
  ],
);

/**
 * The Bayesian filter's counts, trained by the moderators' Spam and Approve decisions: per token, how
 * many spam and genuine comments contained it. The row with the empty token counts the comments.
 */
export const commentSpamTokens = pgTable("comment_spam_tokens", {
  token: text("token").primaryKey(),
  spam: integer("spam").notNull().default(0),
  ham: integer("ham").notNull().default(0),
});

/**
 * What is known of a commenter's email (lower-cased, as in comments.author_email): whether its owner
 * confirmed it through the emailed link, and whether the site's owner trusts it ("auto-approve this
 * person"). Only the link's hash is kept; the latest link sent is the one that works.
 */
export const commentAuthors = pgTable(
  "comment_authors",
  {
    email: text("email").primaryKey(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    confirmTokenHash: text("confirm_token_hash"),
    confirmExpiresAt: timestamp("confirm_expires_at", { withTimezone: true }),
    /** When a confirmation email was last queued (at most one a day per email). */
    confirmSentAt: timestamp("confirm_sent_at", { withTimezone: true }),
    /** Set by a moderator on a confirmed email: its later comments skip the "first comment" hold. */
    trustedAt: timestamp("trusted_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("comment_authors_confirm_token_idx").on(t.confirmTokenHash)],
);

/** Posts whose comments the owner turned off (site-wide settings live in app_settings). */
export const commentsClosedPosts = pgTable("comments_closed_posts", {
  postId: uuid("post_id")
    .primaryKey()
    .references(() => blogPosts.id, { onDelete: "cascade" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Webmentions this site sent: one row per post and linked page, with the post version it was sent
 * for, so a link is notified once per version of the post (and again when the post changes).
 */
export const webmentionSends = pgTable(
  "webmention_sends",
  {
    postId: uuid("post_id")
      .notNull()
      .references(() => blogPosts.id, { onDelete: "cascade" }),
    target: text("target").notNull(),
    /** Hash of what the post said when the mention was sent. */
    version: text("version").notNull(),
    /** The receiver's endpoint, or null when the target announces none. */
    endpoint: text("endpoint"),
    status: integer("status"),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.target] })],
);

// ---- Booking calls (app/features/booking) ----

/** created_at and updated_at, set by the database. */
const rowTimes = () => ({
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const CALL_LOCATIONS = ["video", "phone", "link-later"] as const;
export const BOOKING_QUESTIONS = ["company", "topic", "notes"] as const;
export const BOOKING_STATUSES = ["confirmed", "cancelled-by-visitor", "cancelled-by-owner"] as const;

/** One row (id 1): booking's own settings (hours are in SITE_TIME_ZONE, the site's zone). */
export const bookingSettings = pgTable(
  "booking_settings",
  {
    id: integer("id").primaryKey().default(1),
    /** SHA-256 (base64url) of the private ICS feed's secret; null while the owner has no feed. */
    feedTokenHash: text("feed_token"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("booking_settings_single_row", sql`${t.id} = 1`)],
);

export const bookingCallTypes = pgTable(
  "booking_call_types",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    slug: text("slug").notNull().unique(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    durationMinutes: integer("duration_minutes").notNull(),
    incrementMinutes: integer("increment_minutes").notNull().default(30),
    bufferBeforeMinutes: integer("buffer_before_minutes").notNull().default(0),
    bufferAfterMinutes: integer("buffer_after_minutes").notNull().default(0),
    minimumNoticeMinutes: integer("minimum_notice_minutes").notNull().default(720),
    horizonDays: integer("horizon_days").notNull().default(60),
    /** At most this many calls of this type a day (the owner's day); null: no cap. */
    dailyCap: integer("daily_cap"),
    location: text("location", { enum: CALL_LOCATIONS }).notNull().default("link-later"),
    /** The video link the owner pasted (location "video"). */
    videoUrl: text("video_url"),
    /** The optional questions asked besides name and email. */
    questions: jsonb("questions").$type<(typeof BOOKING_QUESTIONS)[number][]>().notNull().default([]),
    remind24h: boolean("remind_24h").notNull().default(true),
    remind1h: boolean("remind_1h").notNull().default(true),
    active: boolean("active").notNull().default(true),
    displayOrder: integer("display_order").notNull().default(0),
    ...rowTimes(),
  },
  (t) => [
    check("booking_call_types_location_check", sql`${t.location} in (${inList(CALL_LOCATIONS)})`),
    check("booking_call_types_duration_check", sql`${t.durationMinutes} between 5 and 480`),
    check("booking_call_types_increment_check", sql`${t.incrementMinutes} between 5 and 480`),
    check(
      "booking_call_types_buffers_check",
      sql`${t.bufferBeforeMinutes} between 0 and 240 and ${t.bufferAfterMinutes} between 0 and 240`,
    ),
    check("booking_call_types_notice_check", sql`${t.minimumNoticeMinutes} between 0 and 43200`),
    check("booking_call_types_horizon_check", sql`${t.horizonDays} between 1 and 365`),
    check("booking_call_types_cap_check", sql`${t.dailyCap} is null or ${t.dailyCap} between 1 and 100`),
  ],
);

/** Weekly hours in the owner's time zone: several ranges a day; weekday 1 = Monday … 7 = Sunday. */
export const bookingWeeklyHours = pgTable(
  "booking_weekly_hours",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    weekday: integer("weekday").notNull(),
    startMinute: integer("start_minute").notNull(),
    endMinute: integer("end_minute").notNull(),
  },
  (t) => [
    check("booking_weekly_hours_weekday_check", sql`${t.weekday} between 1 and 7`),
    check("booking_weekly_hours_range_check", sql`${t.startMinute} >= 0 and ${t.endMinute} <= 1440 and ${t.startMinute} < ${t.endMinute}`),
  ],
);

/**
 * Date overrides in the owner's time zone, for the days first_day..last_day: without minutes the
 * days are off (a day off, holidays); with minutes these hours replace the weekly hours those days.
 */
export const bookingDateOverrides = pgTable(
  "booking_date_overrides",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    firstDay: text("first_day").notNull(),
    lastDay: text("last_day").notNull(),
    startMinute: integer("start_minute"),
    endMinute: integer("end_minute"),
    note: text("note").notNull().default(""),
  },
  (t) => [
    check(
      "booking_date_overrides_days_check",
      sql`${t.firstDay} ~ '^\\d{4}-\\d{2}-\\d{2}$' and ${t.lastDay} ~ '^\\d{4}-\\d{2}-\\d{2}$' and ${t.firstDay} <= ${t.lastDay}`,
    ),
    check(
      "booking_date_overrides_range_check",
      sql`(${t.startMinute} is null and ${t.endMinute} is null) or (${t.startMinute} >= 0 and ${t.endMinute} <= 1440 and ${t.startMinute} < ${t.endMinute})`,
    ),
  ],
);

/**
 * Bookings. blocked_from..blocked_until is the call with its buffers; the migration adds an
 * exclusion constraint over it for confirmed bookings, so the database refuses any overlap.
 */
export const bookings = pgTable(
  "bookings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    callTypeId: uuid("call_type_id")
      .notNull()
      .references(() => bookingCallTypes.id, { onDelete: "restrict" }),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    blockedFrom: timestamp("blocked_from", { withTimezone: true }).notNull(),
    blockedUntil: timestamp("blocked_until", { withTimezone: true }).notNull(),
    status: text("status", { enum: BOOKING_STATUSES }).notNull().default("confirmed"),
    /** The iCalendar SEQUENCE: raised by each reschedule and by the cancellation. */
    sequence: integer("sequence").notNull().default(0),
    rescheduleCount: integer("reschedule_count").notNull().default(0),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone"),
    company: text("company"),
    topic: text("topic"),
    notes: text("notes"),
    visitorTimeZone: text("visitor_time_zone"),
    ipAddress: text("ip_address"),
    cancelMessage: text("cancel_message"),
    noShow: boolean("no_show").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
  },
  (t) => [
    check("bookings_status_check", sql`${t.status} in (${inList(BOOKING_STATUSES)})`),
    check(
      "bookings_times_check",
      sql`${t.blockedFrom} <= ${t.startsAt} and ${t.startsAt} < ${t.endsAt} and ${t.endsAt} <= ${t.blockedUntil}`,
    ),
    index("bookings_starts_idx").on(t.startsAt),
  ],
);

/**
 * The owner's calendars read for busy times: private ICS addresses (`ics`) and CalDAV calendars
 * (`caldav`, read with a user name and a password sealed with the app secret). The URL is a secret.
 */
export const bookingCalendarFeeds = pgTable("booking_calendar_feeds", {
  id: uuid("id").primaryKey().defaultRandom(),
  label: text("label").notNull(),
  kind: text("kind", { enum: ["ics", "caldav"] })
    .notNull()
    .default("ics"),
  url: text("url").notNull(),
  /** CalDAV only: the user name, and the password as sealWithAppSecret's output (never in clear). */
  username: text("username"),
  passwordSealed: text("password_sealed"),
  refreshMinutes: integer("refresh_minutes").notNull().default(10),
  lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
  lastSuccessAt: timestamp("last_success_at", { withTimezone: true }),
  lastError: text("last_error"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Busy times read from a feed (replaced as a whole by each successful refresh). */
export const bookingBusyTimes = pgTable(
  "booking_busy_times",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    feedId: uuid("feed_id")
      .notNull()
      .references(() => bookingCalendarFeeds.id, { onDelete: "cascade" }),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("booking_busy_times_range_idx").on(t.startsAt, t.endsAt)],
);

/**
 * A stamp of what the offered slots are computed from (call types, weekly hours, date overrides,
 * bookings, busy times): a new random value on every write to those tables, set by statement
 * triggers in the writing transaction (drizzle/0049_25-slot-stamp.sql), so no writer can forget
 * it. The slot cache keys on it (app/features/booking/slot-cache.server.ts). Derived: never backed up.
 */
export const bookingSlotStamp = pgTable(
  "booking_slot_stamp",
  {
    id: integer("id").primaryKey().default(1),
    stamp: uuid("stamp").notNull().defaultRandom(),
  },
  (t) => [check("booking_slot_stamp_single_row", sql`${t.id} = 1`)],
);

/** ActivityPub: the fediverse accounts that follow the site's actor (docs/decisions/0072-activitypub.md). */
export const fediverseFollowers = pgTable("fediverse_followers", {
  /** The follower's actor address (its id). */
  actorId: text("actor_id").primaryKey(),
  /** user@host, as the admin lists it. */
  handle: text("handle").notNull(),
  inbox: text("inbox").notNull(),
  /** The instance's shared inbox: one delivery per instance however many of its people follow. */
  sharedInbox: text("shared_inbox"),
  /** The Follow activity's id, which the Accept names. */
  followId: text("follow_id").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Remote actors' public keys and inboxes, fetched through the outbound guard and kept (refetched when a signature fails). */
export const fediverseActors = pgTable("fediverse_actors", {
  keyId: text("key_id").primaryKey(),
  actorId: text("actor_id").notNull(),
  publicKeyPem: text("public_key_pem").notNull(),
  inbox: text("inbox").notNull(),
  sharedInbox: text("shared_inbox"),
  handle: text("handle").notNull(),
  name: text("name").notNull(),
  /** The profile page people open (the actor's `url`), else its id. */
  profileUrl: text("profile_url").notNull(),
  /** The actor's `icon` (its avatar) as published, copied onto the replies it sends. */
  iconUrl: text("icon_url"),
  fetchedAt: timestamp("fetched_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Posts delivered to followers, with the version that went out: a new version sends Update, a
 * deleted or unpublished post sends Delete once. No foreign key: the row outlives the post it deletes.
 */
export const fediversePosts = pgTable("fediverse_posts", {
  postId: uuid("post_id").primaryKey(),
  version: text("version").notNull(),
  deletedAt: timestamp("deleted_at", { withTimezone: true }),
  sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Which HTTP signature form each remote instance (host[:port]) accepted last: RFC 9421 or
 * draft-cavage (docs/decisions/0086-rfc9421-signatures.md). Shared by every instance of the site, so
 * one that learnt an instance takes only draft-cavage spares the others the first refused knock.
 */
export const fediverseInstances = pgTable(
  "fediverse_instances",
  {
    host: text("host").primaryKey(),
    signatureStyle: text("signature_style").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("fediverse_instances_style_check", sql`${t.signatureStyle} in ('rfc9421', 'cavage')`)],
);
