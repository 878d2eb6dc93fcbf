import fs from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { avatarKeyOf, commentAvatarJob } from "~/features/comments/comment-avatars.server";
import { moderateComment } from "~/features/comments/comments.server";
import { makeKeyPair, signRequest, type KeyPair } from "~/features/fediverse/http-signature.server";
import { createPost } from "~/features/posts/write/posts.server";
import { sweepOrphanedUploads } from "~/features/uploads/uploads.server";
import { comments, jobs, uploads } from "~/server/db/schema.server";
import { resetEnvForTests } from "~/server/env.server";
import { describeEachDatabase } from "../helpers/databases";
import { signedInAs, unique } from "../helpers/factories";
import { startImageServer, type ImageServer } from "../helpers/image-server";
import { drainJobs } from "../helpers/jobs";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { tempDir } from "../helpers/temp-dir";

// The remote instance listens on 127.0.0.1, which the outbound guard refuses unless this is set; the
// build stores files under UPLOAD_DIR, read when it first stores one (so set before it starts).
process.env.OUTBOUND_ALLOW_PRIVATE = "true";
const uploadDir = tempDir("comment-avatars-");
process.env.UPLOAD_DIR = uploadDir;

/**
 * Remote authors' avatars against a real local instance: Bob's icon is a real PNG, Carol's says
 * image/png but is an SVG, Dave's is larger than an avatar may be. Our page must show our own copy
 * of Bob's (fetched once for two replies) and initials for the other two, never a remote address.
 */
type ActorName = "bob" | "carol" | "dave";
const ACTORS: readonly ActorName[] = ["bob", "carol", "dave"];
/** The remote instance: actor documents and pictures, by path (filled in once its address is known). */
const files: Record<string, { body: Buffer; type: string }> = {};
let remote: ImageServer;
let keys: KeyPair;
/** Per database run: a new icon address, so the second run cannot reuse the first's stored copy. */
let version = "";
const saved = { ...process.env };

const actorUrl = (name: ActorName) => `${remote.url}/users/${name}`;
const iconUrl = (name: ActorName) => `${remote.url}/media/${name}.png?v=${version}`;
const pictureRequests = () => [...remote.hits.keys()].filter((path) => path.startsWith("/media/"));

/** An actor as Mastodon publishes it (Carol's icon as a list of images), its icon at `iconUrl`. */
const actorDocument = (actor: ActorName) => ({
  "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
  id: actorUrl(actor),
  type: "Person",
  preferredUsername: actor,
  name: `${actor[0]!.toUpperCase()}${actor.slice(1)} Remote`,
  inbox: `${actorUrl(actor)}/inbox`,
  icon: actor === "carol" ? [{ type: "Image", url: iconUrl(actor) }] : { type: "Image", mediaType: "image/png", url: iconUrl(actor) },
  publicKey: { id: `${actorUrl(actor)}#main-key`, owner: actorUrl(actor), publicKeyPem: keys.publicKeyPem },
});

beforeAll(async () => {
  process.env.LOG_LEVEL = "silent";
  resetEnvForTests();
  keys = await makeKeyPair();
  const png = await sharp({ create: { width: 200, height: 150, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .png()
    .toBuffer();
  files["/media/bob.png"] = { body: png, type: "image/png" };
  files["/media/carol.png"] = {
    body: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    type: "image/png",
  };
  files["/media/dave.png"] = { body: Buffer.concat([png, Buffer.alloc(600_000)]), type: "image/png" };
  remote = await startImageServer(files);
});
afterAll(async () => {
  process.env = saved;
  resetEnvForTests();
  await remote.close();
});

describeEachDatabase("remote authors' avatars", (ctx) => {
  let server: TestServer;
  let admin: { id: string; role: "admin" };
  let adminCookie = "";
  beforeAll(async () => {
    version = unique();
    // The actors name this run's icon addresses.
    for (const actor of ACTORS)
      files[`/users/${actor}`] = { body: Buffer.from(JSON.stringify(actorDocument(actor))), type: "application/activity+json" };
    const signedIn = await signedInAs(ctx.db, "admin");
    admin = { id: signedIn.userId, role: "admin" };
    adminCookie = signedIn.cookie;
    server = await startTestServer();
    process.env.PUBLIC_URL = server.url;
    resetEnvForTests();
  });
  afterAll(() => server.close());

  const runJobs = () => drainJobs(ctx.database, [commentAvatarJob]);

  /** The post's page as a reader gets it: always a page, whatever became of the pictures. */
  const postPage = async (slug: string) => {
    const response = await server.fetch(`/7fs/Fun/${slug}`);
    expect(response.status).toBe(200);
    return response.text();
  };

  /** A reply to the post from one of the remote actors, signed by them; answers the comment's id. */
  const reply = async (actor: ActorName, postId: string, text: string) => {
    const noteId = `${actorUrl(actor)}/statuses/${unique()}`;
    const body = JSON.stringify({
      id: `${noteId}/activity`,
      type: "Create",
      actor: actorUrl(actor),
      object: {
        id: noteId,
        type: "Note",
        attributedTo: actorUrl(actor),
        inReplyTo: `${server.url}/ap/posts/${postId}`,
        content: `<p>${text}</p>`,
      },
    });
    const headers = signRequest({
      method: "POST",
      url: `${server.url}/ap/inbox`,
      body,
      keyId: `${actorUrl(actor)}#main-key`,
      privateKeyPem: keys.privateKeyPem,
    });
    const response = await server.fetch("/ap/inbox", {
      method: "POST",
      headers: { ...headers, "content-type": "application/activity+json" },
      body,
    });
    expect(response.status).toBe(202);
    const [row] = await ctx.db
      .select({ id: comments.id, photo: comments.authorPhotoUrl })
      .from(comments)
      .where(eq(comments.sourceUrl, noteId));
    expect(row?.photo).toBe(iconUrl(actor));
    await moderateComment(ctx.db, admin, row!.id, "approved");
    return row!.id;
  };

  it("shows our own small copy of a fediverse author's icon, fetched once for all their replies", async () => {
    const post = await createPost(ctx.db, admin, { title: `Avatars ${unique()}`, content: "Tell me.", category: "Fun", published: true });
    const first = await reply("bob", post.id, "First thought.");
    const second = await reply("bob", post.id, "Second thought.");
    // Before the job has run the author has initials.
    const before = await postPage(post.slug);
    expect(before).toContain(">BR</span>");
    expect(before).not.toContain("/avatars/");

    remote.hits.clear();
    await runJobs();
    expect(pictureRequests()).toEqual(["/media/bob.png"]);
    expect(remote.hits.get("/media/bob.png")).toBe(1);
    const key = avatarKeyOf(iconUrl("bob"));
    const rows = await ctx.db.select({ id: comments.id, key: comments.authorAvatarKey }).from(comments).where(eq(comments.postId, post.id));
    expect(rows.map((row) => row.key)).toEqual([key, key]);
    expect(new Set(rows.map((row) => row.id))).toEqual(new Set([first, second]));

    const page = await postPage(post.slug);
    expect(page).toContain(`<img src="/uploads/${key}" alt="" width="28" height="28" loading="lazy"`);
    expect(page).not.toContain(`${remote.url}/media/`);
    expect(page).not.toContain(">BR</span>");
    // The moderators see it too, beside the name in Comments.
    const queue = await (await server.fetch("/admin/comments?queue=approved", { headers: { cookie: adminCookie } })).text();
    expect(queue).toContain(`<img src="/uploads/${key}" alt="" width="28" height="28" loading="lazy"`);
    // A later reply from Bob takes the stored copy at once: nothing is fetched again.
    const third = await reply("bob", post.id, "Third thought.");
    const [later] = await ctx.db.select({ key: comments.authorAvatarKey }).from(comments).where(eq(comments.id, third));
    expect(later?.key).toBe(key);
    expect(remote.hits.get("/media/bob.png")).toBe(1);
    const file = await server.fetch(`/uploads/${key}`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/webp");
    const meta = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 96, 96]);
  });

  it("keeps initials when the icon is not really an image or is too large, and gives up without an error on the page", async () => {
    const post = await createPost(ctx.db, admin, {
      title: `No avatars ${unique()}`,
      content: "Tell me.",
      category: "Fun",
      published: true,
    });
    await reply("carol", post.id, "Not a picture.");
    await reply("dave", post.id, "Too big a picture.");
    await runJobs();
    const rows = await ctx.db.select({ key: comments.authorAvatarKey }).from(comments).where(eq(comments.postId, post.id));
    expect(rows).toEqual([{ key: null }, { key: null }]);
    const avatarJobs = await ctx.db
      .select({ state: jobs.state, error: jobs.lastError, payload: jobs.payload })
      .from(jobs)
      .where(eq(jobs.kind, commentAvatarJob.kind));
    const jobOf = (actor: ActorName) => avatarJobs.find((job) => (job.payload as { photoUrl: string }).photoUrl === iconUrl(actor));
    // A fake image is given up at once; a too large one is tried again later (then given up).
    expect(jobOf("carol")).toMatchObject({ state: "failed" });
    expect(jobOf("carol")?.error).toMatch(/not an accepted image/);
    expect(jobOf("dave")).toMatchObject({ state: "pending" });
    expect(jobOf("dave")?.error).toMatch(/512000/);

    const page = await postPage(post.slug);
    for (const initials of ["CR", "DR"]) expect(page).toContain(`>${initials}</span>`);
    expect(page).not.toContain("/avatars/");
    expect(page).not.toContain(`${remote.url}/media/`);
    expect(fs.existsSync(path.join(uploadDir, avatarKeyOf(iconUrl("carol"))))).toBe(false);
  });

  it("records the copy as an upload, kept by the orphan sweep while a comment names it and deleted once none does", async () => {
    const post = await createPost(ctx.db, admin, { title: `Swept ${unique()}`, content: "Tell me.", category: "Fun", published: true });
    await reply("bob", post.id, "Still here.");
    await runJobs();
    const key = avatarKeyOf(iconUrl("bob"));
    const [row] = await ctx.db
      .select({ type: uploads.contentType, width: uploads.width, size: uploads.byteSize, name: uploads.originalName })
      .from(uploads)
      .where(eq(uploads.storageKey, key));
    expect(row).toMatchObject({ type: "image/webp", width: 96, name: `Commenter's avatar from ${new URL(remote.url).host}` });
    expect(row!.size).toBe(fs.statSync(path.join(uploadDir, key)).size);
    // Two days old: the sweep looks at it, and keeps it while Bob's comments name it.
    const aged = () =>
      ctx.db
        .update(uploads)
        .set({ createdAt: sql`now() - interval '2 days'`, checkedAt: null })
        .where(eq(uploads.storageKey, key));
    await aged();
    expect(await sweepOrphanedUploads(ctx.db)).not.toContain(key);
    expect(fs.existsSync(path.join(uploadDir, key))).toBe(true);
    await ctx.db.delete(comments).where(eq(comments.authorPhotoUrl, iconUrl("bob")));
    await aged();
    expect(await sweepOrphanedUploads(ctx.db)).toContain(key);
    expect(fs.existsSync(path.join(uploadDir, key))).toBe(false);
    expect(await ctx.db.select({ id: uploads.id }).from(uploads).where(eq(uploads.storageKey, key))).toEqual([]);
  });

  it("tries a picture that could not be copied again for a later reply, once the wait is over", async () => {
    const post = await createPost(ctx.db, admin, { title: `Retry ${unique()}`, content: "Tell me.", category: "Fun", published: true });
    const carolJob = () =>
      ctx.db
        .select({ id: jobs.id, state: jobs.state })
        .from(jobs)
        .where(sql`${jobs.kind} = ${commentAvatarJob.kind} and ${jobs.payload}->>'photoUrl' = ${iconUrl("carol")}`);
    const [failed] = await carolJob();
    expect(failed).toMatchObject({ state: "failed" });
    // Carol fixed her picture; a reply right after the failure does not fetch it again.
    const saved = files["/media/carol.png"]!;
    files["/media/carol.png"] = files["/media/bob.png"]!;
    try {
      await reply("carol", post.id, "Fixed my picture.");
      expect(await carolJob()).toEqual([failed]);
      // Once the wait is over, the next reply brings a new try, which copies it.
      await ctx.db
        .update(jobs)
        .set({ finishedAt: sql`now() - interval '7 hours'` })
        .where(eq(jobs.id, failed!.id));
      const last = await reply("carol", post.id, "And again.");
      const [again] = await carolJob();
      expect(again?.id).not.toBe(failed!.id);
      await runJobs();
      const [row] = await ctx.db.select({ key: comments.authorAvatarKey }).from(comments).where(eq(comments.id, last));
      expect(row?.key).toBe(avatarKeyOf(iconUrl("carol")));
    } finally {
      files["/media/carol.png"] = saved;
    }
  });
});
