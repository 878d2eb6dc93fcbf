import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { addCommentBlock, moderateComment, removeCommentBlock } from "~/features/comments/comments.server";
import {
  announceActorChanges,
  blockFollower,
  deliverJob,
  federatePost,
  federatePostJob,
  fediverseAdminView,
  removeFollower,
} from "~/features/fediverse/fediverse.server";
import {
  checkRfc9421,
  checkSignature,
  contentDigestOf,
  makeKeyPair,
  parseRfc9421,
  parseSignature,
  signRequestAs,
  type KeyPair,
  type SignatureStyle,
} from "~/features/fediverse/http-signature.server";
import { createPost, deletePost, updatePost } from "~/features/posts/write/posts.server";
import { blogPosts, commentBlocks, comments, fediverseFollowers, fediverseInstances } from "~/server/db/schema.server";
import { resetEnvForTests } from "~/server/env.server";
import { defineJob } from "~/server/jobs/jobs.server";
import { JobRunner } from "~/server/jobs/runner.server";
import { describeEachDatabase } from "../helpers/databases";
import { signedInAs, unique } from "../helpers/factories";
import { startTestServer, type TestServer } from "../helpers/test-server";

// The remote instance listens on 127.0.0.1, which the outbound guard refuses unless this is set.
process.env.OUTBOUND_ALLOW_PRIVATE = "true";

/**
 * ActivityPub against a real local HTTP server acting as a Mastodon-like instance: it has its own
 * key pair and actor document, signs its Follow, replies, Undo and forged requests to our inbox (in
 * draft-cavage or RFC 9421), and records (and checks the signatures of) what our job runner delivers
 * to its inboxes. A second one takes only draft-cavage, as most of the fediverse still does: it
 * answers anything else 401.
 */
interface Received {
  path: string;
  activity: { id: string; type: string; actor: string; object: Record<string, unknown> & { id: string } };
  request: { method: string; target: string; headers: IncomingMessage["headers"]; body: Buffer };
}
const received: Received[] = [];
/** What the draft-cavage-only instance was sent: refused knocks included. */
const cavageOnlyLog: { style: SignatureStyle; status: number; request?: Received["request"] }[] = [];
let cavageOnly: Server;
let cavageOnlyUrl = "";
let remote: Server;
let remoteUrl = "";
let aliceKeys: KeyPair;
let alice = "";
const saved = { ...process.env };

beforeAll(async () => {
  process.env.LOG_LEVEL = "silent";
  aliceKeys = await makeKeyPair();
  remote = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      if (req.method === "GET" && req.url === "/users/alice") {
        res.writeHead(200, { "content-type": "application/activity+json" }).end(
          JSON.stringify({
            "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
            id: alice,
            type: "Person",
            preferredUsername: "alice",
            name: "Alice Example",
            url: `${remoteUrl}/@alice`,
            inbox: `${alice}/inbox`,
            endpoints: { sharedInbox: `${remoteUrl}/inbox` },
            publicKey: { id: `${alice}#main-key`, owner: alice, publicKeyPem: aliceKeys.publicKeyPem },
          }),
        );
        return;
      }
      if (req.method === "POST" && (req.url === "/inbox" || req.url === "/users/alice/inbox")) {
        received.push({
          path: req.url,
          activity: JSON.parse(body.toString("utf8")) as Received["activity"],
          request: { method: req.method, target: req.url, headers: req.headers, body },
        });
        res.writeHead(202).end();
        return;
      }
      res.writeHead(404).end("not here");
    });
  });
  await new Promise<void>((resolve) => remote.listen(0, "127.0.0.1", resolve));
  remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
  alice = `${remoteUrl}/users/alice`;
  // Like an instance that predates RFC 9421: a Signature header that is not draft-cavage is no signature.
  cavageOnly = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const style: SignatureStyle = req.headers["signature-input"] ? "rfc9421" : "cavage";
      const status = parseSignature(String(req.headers.signature ?? "")) ? 202 : 401;
      const request = { method: req.method ?? "", target: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) };
      cavageOnlyLog.push({ style, status, ...(status === 202 ? { request } : {}) });
      res.writeHead(status).end(status === 401 ? "Signature required" : undefined);
    });
  });
  await new Promise<void>((resolve) => cavageOnly.listen(0, "127.0.0.1", resolve));
  cavageOnlyUrl = `http://127.0.0.1:${(cavageOnly.address() as AddressInfo).port}`;
});
afterAll(async () => {
  process.env = saved;
  resetEnvForTests();
  await new Promise((resolve) => remote.close(resolve));
  await new Promise((resolve) => cavageOnly.close(resolve));
});

describeEachDatabase("fediverse (ActivityPub)", (ctx) => {
  let server: TestServer;
  let host = "";
  let admin: { id: string; role: "admin" };
  beforeAll(async () => {
    admin = { id: (await signedInAs(ctx.db, "admin")).userId, role: "admin" };
    server = await startTestServer();
    host = new URL(server.url).host;
    // Every address the actor gives out starts with the configured site address.
    process.env.PUBLIC_URL = server.url;
    resetEnvForTests();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    received.length = 0;
  });

  const runJobs = async () => {
    // The build registered its own copies of the kinds; the runner here knows this module's errors.
    defineJob(deliverJob.kind, deliverJob.schema, deliverJob.handler, deliverJob);
    defineJob(federatePostJob.kind, federatePostJob.schema, federatePostJob.handler, federatePostJob);
    const runner = new JobRunner({
      database: () => ctx.database,
      tasks: [],
      pollMs: 60_000,
      kinds: [deliverJob.kind, federatePostJob.kind],
    });
    try {
      await runner.drain();
    } finally {
      await runner.stop();
    }
  };

  /** POSTs an activity to our inbox, signed as Alice (or with `keys`/`keyId`/`style`/`date` given). */
  const signedPost = async (
    activity: Record<string, unknown>,
    options: { keys?: KeyPair; keyId?: string; body?: string; style?: SignatureStyle; date?: Date; headers?: Record<string, string> } = {},
  ) => {
    const body = JSON.stringify(activity);
    const headers = await signRequestAs(options.style ?? "cavage", {
      method: "POST",
      url: `${server.url}/ap/inbox`,
      body,
      keyId: options.keyId ?? `${alice}#main-key`,
      privateKeyPem: (options.keys ?? aliceKeys).privateKeyPem,
      date: options.date,
    });
    return server.fetch("/ap/inbox", {
      method: "POST",
      headers: { ...headers, ...options.headers, "content-type": "application/activity+json" },
      body: options.body ?? body,
    });
  };

  /** Our actor's key, as another instance fetches it. */
  const ourPublicKey = async () => {
    const response = await server.fetch("/ap/actor", { headers: { accept: "application/activity+json" } });
    return ((await response.json()) as { publicKey: { publicKeyPem: string } }).publicKey.publicKeyPem;
  };
  /** Whether a delivery the remote received carries a valid signature of our actor's key (RFC 9421: Alice's instance takes it). */
  const validlySigned = async (delivery: Received) => {
    const header = (name: string) => {
      const value = delivery.request.headers[name];
      return typeof value === "string" ? value : null;
    };
    const signature = parseRfc9421(header);
    if (typeof signature === "string" || signature === null) return signature ?? "not signed with RFC 9421";
    expect(signature.keyId).toBe(`${server.url}/ap/actor#main-key`);
    return checkRfc9421({
      signature,
      method: delivery.request.method,
      targetUri: `${remoteUrl}${delivery.request.target}`,
      header,
      body: delivery.request.body,
      publicKeyPem: await ourPublicKey(),
    });
  };
  /** Alice's reply to one of our posts: a Create of a Note, signed by her (naming `attributedTo` as its author). */
  const replyFrom = (postId: string, noteId: string, content: string, attributedTo: string | null = alice) =>
    signedPost({
      id: `${noteId}/activity`,
      type: "Create",
      actor: alice,
      object: {
        id: noteId,
        type: "Note",
        ...(attributedTo ? { attributedTo } : {}),
        inReplyTo: `${server.url}/ap/posts/${postId}`,
        content,
      },
    });
  const follow = async () => {
    const id = `${alice}#follows/${unique()}`;
    const response = await signedPost({ id, type: "Follow", actor: alice, object: `${server.url}/ap/actor` });
    return { id, response };
  };

  it("is found by WebFinger and describes itself as an actor, with NodeInfo", async () => {
    const finger = await server.fetch(`/.well-known/webfinger?resource=${encodeURIComponent(`acct:blog@${host}`)}`);
    expect(finger.status).toBe(200);
    expect(finger.headers.get("content-type")).toMatch(/^application\/jrd\+json/);
    const jrd = (await finger.json()) as { subject: string; links: { rel: string; type?: string; href: string }[] };
    expect(jrd.subject).toBe(`acct:blog@${host}`);
    expect(jrd.links).toContainEqual({ rel: "self", type: "application/activity+json", href: `${server.url}/ap/actor` });
    expect((await server.fetch(`/.well-known/webfinger?resource=acct:someone@${host}`)).status).toBe(404);
    expect((await server.fetch("/.well-known/webfinger")).status).toBe(400);

    const actor = (await (await server.fetch("/ap/actor", { headers: { accept: "application/activity+json" } })).json()) as Record<
      string,
      unknown
    >;
    expect(actor).toMatchObject({
      id: `${server.url}/ap/actor`,
      type: "Person",
      preferredUsername: "blog",
      inbox: `${server.url}/ap/inbox`,
      outbox: `${server.url}/ap/outbox`,
      followers: `${server.url}/ap/followers`,
      publicKey: { id: `${server.url}/ap/actor#main-key`, owner: `${server.url}/ap/actor` },
    });
    expect(typeof actor.name).toBe("string");
    expect(String((actor.publicKey as { publicKeyPem: string }).publicKeyPem)).toMatch(/BEGIN PUBLIC KEY/);
    // A browser opening the actor's address is sent to the site.
    expect((await server.fetch("/ap/actor", { headers: { accept: "text/html" } })).status).toBe(302);

    const links = (await (await server.fetch("/.well-known/nodeinfo")).json()) as { links: { href: string }[] };
    expect(links.links[0]?.href).toBe(`${server.url}/nodeinfo/2.1`);
    const info = (await (await server.fetch("/nodeinfo/2.1")).json()) as { protocols: string[]; version: string };
    expect(info).toMatchObject({ version: "2.1", protocols: ["activitypub"] });
  });

  it("pages the outbox as Mastodon reads it: first, next, 20 a page, every published post once, newest first", async () => {
    const made: string[] = [];
    for (let i = 0; i < 23; i++) {
      const post = await createPost(ctx.db, admin, { title: `Paged ${i} ${unique()}`, content: "Text.", category: "Fun", published: true });
      made.push(`${server.url}/ap/posts/${post.id}`);
    }
    await createPost(ctx.db, admin, { title: `Draft ${unique()}`, content: "Not yet.", category: "Fun", published: false });
    const [published] = await ctx.db
      .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
      .from(blogPosts)
      .where(eq(blogPosts.published, true));
    const get = async (path: string) => {
      const response = await server.fetch(path, { headers: { accept: "application/activity+json" } });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^application\/activity\+json/);
      return (await response.json()) as Record<string, unknown>;
    };
    const collection = await get("/ap/outbox");
    expect(collection).toMatchObject({ id: `${server.url}/ap/outbox`, type: "OrderedCollection", totalItems: published!.n });
    expect(collection.orderedItems).toBeUndefined();
    type Page = {
      id: string;
      type: string;
      partOf: string;
      next?: string;
      orderedItems: { type: string; object: { id: string; published: string } }[];
    };
    let next: string | undefined = String(collection.first);
    const seen: string[] = [];
    const sizes: number[] = [];
    const dates: string[] = [];
    while (next) {
      expect(next.startsWith(`${server.url}/ap/outbox?page=true`)).toBe(true);
      const page = (await get(next.slice(server.url.length))) as unknown as Page;
      expect(page).toMatchObject({ id: next, type: "OrderedCollectionPage", partOf: `${server.url}/ap/outbox` });
      expect(page.orderedItems.every((item) => item.type === "Create")).toBe(true);
      sizes.push(page.orderedItems.length);
      seen.push(...page.orderedItems.map((item) => item.object.id));
      dates.push(...page.orderedItems.map((item) => item.object.published));
      next = page.next;
    }
    expect(seen).toHaveLength(published!.n);
    expect(new Set(seen).size).toBe(seen.length);
    expect(sizes.slice(0, -1).every((size) => size === 20)).toBe(true);
    expect(sizes.at(-1)).toBeGreaterThan(0);
    expect(sizes.length).toBe(Math.ceil(published!.n / 20));
    // Newest first: the last post made leads the first page.
    expect(seen[0]).toBe(made.at(-1));
    expect([...dates].sort().reverse()).toEqual(dates);
    for (const id of made) expect(seen).toContain(id);
    // A malformed page address is a 400 that says what to do.
    const bad = await server.fetch("/ap/outbox?page=true&before=bm90LWEtY3Vyc29y");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/first page/);
    // The posts' deliveries (to no one yet) are done before the next test's follower arrives.
    await runJobs();
  });

  it("refuses unsigned, badly signed, tampered and impersonating requests with 401, storing nothing", async () => {
    const activity = { id: `${alice}#follows/${unique()}`, type: "Follow", actor: alice, object: `${server.url}/ap/actor` };
    const unsigned = await server.fetch("/ap/inbox", {
      method: "POST",
      headers: { "content-type": "application/activity+json" },
      body: JSON.stringify(activity),
    });
    expect(unsigned.status).toBe(401);
    expect(((await unsigned.json()) as { error: string }).error).toMatch(/signed with HTTP Signatures/);
    // Signed with another key than the one Alice's actor publishes.
    const forged = await signedPost(activity, { keys: await makeKeyPair() });
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { error: string }).error).toMatch(/signature does not match/);
    // The body changed after signing: the digest no longer matches.
    const tampered = await signedPost(activity, { body: JSON.stringify({ ...activity, id: `${alice}#other` }) });
    expect(tampered.status).toBe(401);
    expect(((await tampered.json()) as { error: string }).error).toMatch(/Digest does not match/);
    // Alice's valid signature on an activity that claims to be someone else's.
    const impersonating = await signedPost({ ...activity, actor: `${remoteUrl}/users/bob` });
    expect(impersonating.status).toBe(401);
    expect(await ctx.db.select({ id: fediverseFollowers.actorId }).from(fediverseFollowers)).toEqual([]);
  });

  it("takes a Follow signed with RFC 9421, answers it with an RFC 9421-signed Accept, and refuses forged, expired and wrong-digest ones with 401", async () => {
    const activity = () => ({ id: `${alice}#follows/${unique()}`, type: "Follow", actor: alice, object: `${server.url}/ap/actor` });
    const refusal = async (response: Response) => {
      expect(response.status).toBe(401);
      return ((await response.json()) as { error: string }).error;
    };
    // Signed with another key than the one Alice's actor publishes.
    expect(await refusal(await signedPost(activity(), { style: "rfc9421", keys: await makeKeyPair() }))).toMatch(
      /HTTP signature could not be verified: the signature does not match\./,
    );
    // Made 13 hours ago: outside the window.
    expect(await refusal(await signedPost(activity(), { style: "rfc9421", date: new Date(Date.now() - 13 * 3600_000) }))).toMatch(
      /created time is missing or too far from now/,
    );
    // The body changed after signing: its Content-Digest no longer matches.
    const changed = activity();
    expect(
      await refusal(await signedPost(changed, { style: "rfc9421", body: JSON.stringify({ ...changed, id: `${alice}#other` }) })),
    ).toMatch(/Content-Digest does not match the body/);
    // A digest made for the new body, though the signature covered the old one.
    const swapped = activity();
    const swappedBody = JSON.stringify({ ...swapped, id: `${alice}#swapped` });
    expect(
      await refusal(
        await signedPost(swapped, { style: "rfc9421", body: swappedBody, headers: { "content-digest": contentDigestOf(swappedBody) } }),
      ),
    ).toMatch(/signature does not match/);
    expect(await ctx.db.select({ id: fediverseFollowers.actorId }).from(fediverseFollowers)).toEqual([]);

    const follow = activity();
    const response = await signedPost(follow, { style: "rfc9421" });
    expect(response.status).toBe(202);
    expect(await ctx.db.select({ id: fediverseFollowers.actorId }).from(fediverseFollowers)).toEqual([{ id: alice }]);
    await runJobs();
    expect(received.map((r) => [r.path, r.activity.type, r.activity.object.id])).toEqual([["/users/alice/inbox", "Accept", follow.id]]);
    expect(received[0]!.request.headers["signature-input"]).toMatch(/^sig1=\("@method" "@target-uri" "@authority" "content-digest"\)/);
    expect(await validlySigned(received[0]!)).toBeNull();
    // Alice's instance took RFC 9421: every instance of the site signs that way for it from now on.
    const [instance] = await ctx.db
      .select({ style: fediverseInstances.signatureStyle })
      .from(fediverseInstances)
      .where(eq(fediverseInstances.host, new URL(remoteUrl).host));
    expect(instance).toEqual({ style: "rfc9421" });
    await ctx.db.delete(fediverseFollowers);
  });

  it("still delivers to an instance that takes only draft-cavage: one refused RFC 9421 knock, then draft-cavage, remembered", async () => {
    const cavageHost = new URL(cavageOnlyUrl).host;
    await ctx.db.insert(fediverseFollowers).values({
      actorId: `${cavageOnlyUrl}/users/carol`,
      handle: `carol@${cavageHost}`,
      inbox: `${cavageOnlyUrl}/users/carol/inbox`,
      followId: `${cavageOnlyUrl}/follows/1`,
    });
    cavageOnlyLog.length = 0;
    await createPost(ctx.db, admin, { title: `Old school ${unique()}`, content: "Hello.", category: "Fun", published: true });
    await runJobs();
    expect(cavageOnlyLog.map(({ style, status }) => ({ style, status }))).toEqual([
      { style: "rfc9421", status: 401 },
      { style: "cavage", status: 202 },
    ]);
    // The second knock is a valid draft-cavage signature of our key.
    const delivered = cavageOnlyLog[1]!.request!;
    expect(
      checkSignature({
        signature: parseSignature(String(delivered.headers.signature))!,
        method: delivered.method,
        target: delivered.target,
        header: (name) => (typeof delivered.headers[name] === "string" ? (delivered.headers[name] as string) : null),
        body: delivered.body,
        publicKeyPem: await ourPublicKey(),
      }),
    ).toBeNull();
    const styleOf = async () =>
      (
        await ctx.db
          .select({ style: fediverseInstances.signatureStyle })
          .from(fediverseInstances)
          .where(eq(fediverseInstances.host, cavageHost))
      )[0]?.style;
    expect(await styleOf()).toBe("cavage");
    // The next delivery goes in draft-cavage at once.
    cavageOnlyLog.length = 0;
    await createPost(ctx.db, admin, { title: `Old school again ${unique()}`, content: "Hi.", category: "Fun", published: true });
    await runJobs();
    expect(cavageOnlyLog.map(({ style, status }) => ({ style, status }))).toEqual([{ style: "cavage", status: 202 }]);
    await ctx.db.delete(fediverseFollowers);
  });

  it("accepts a Follow with a signed Accept, delivers Create, Update and Delete once each, and forgets an Undo", async () => {
    const { id: followId, response } = await follow();
    expect(response.status).toBe(202);
    const [follower] = await ctx.db.select().from(fediverseFollowers);
    expect(follower).toMatchObject({ actorId: alice, handle: `alice@${new URL(remoteUrl).host}`, sharedInbox: `${remoteUrl}/inbox` });
    await runJobs();
    expect(received.map((r) => [r.path, r.activity.type])).toEqual([["/users/alice/inbox", "Accept"]]);
    expect(received[0]!.activity.object).toMatchObject({ id: followId, type: "Follow", actor: alice });
    expect(await validlySigned(received[0]!)).toBeNull();
    const view = await fediverseAdminView(ctx.db, admin);
    expect(view).toMatchObject({ address: `@blog@${host}`, count: 1 });
    expect(((await (await server.fetch("/ap/followers")).json()) as { totalItems: number }).totalItems).toBe(1);

    // Publishing delivers the Article to the instance's shared inbox.
    received.length = 0;
    const title = `Budgets that last ${unique()}`;
    const post = await createPost(ctx.db, admin, {
      title,
      content: "Put **some** aside, then [read more](/7fs/Finance).",
      excerpt: "How to keep a budget.",
      category: "Fun",
      published: true,
    });
    await runJobs();
    expect(received.map((r) => [r.path, r.activity.type])).toEqual([["/inbox", "Create"]]);
    const create = received[0]!;
    expect(await validlySigned(create)).toBeNull();
    expect(create.activity.object).toMatchObject({
      id: `${server.url}/ap/posts/${post.id}`,
      type: "Article",
      name: title,
      summary: "How to keep a budget.",
      url: `${server.url}/7fs/Fun/${post.slug}`,
      attributedTo: `${server.url}/ap/actor`,
    });
    const content = String(create.activity.object.content);
    expect(content).toContain("<strong>some</strong>");
    expect(content).toContain(`href="${server.url}/7fs/Finance"`);
    // The object is fetchable where its id says, and the outbox lists it.
    const fetched = await server.fetch(`/ap/posts/${post.id}`, { headers: { accept: "application/activity+json" } });
    expect(((await fetched.json()) as { name: string }).name).toBe(title);
    const outbox = (await (await server.fetch("/ap/outbox?page=true")).json()) as { orderedItems: { object: { id: string } }[] };
    expect(outbox.orderedItems.map((item) => item.object.id)).toContain(`${server.url}/ap/posts/${post.id}`);

    // Running the decision again (a retry, another instance) sends nothing more.
    expect(await federatePost(ctx.db, post.id)).toBeNull();
    await runJobs();
    expect(received).toHaveLength(1);

    // An edit sends Update; saving the same text again sends nothing.
    received.length = 0;
    const edit = { title, content: "Put **more** aside.", excerpt: "How to keep a budget.", category: "Fun", published: true };
    await updatePost(ctx.db, admin, post.slug, edit);
    await runJobs();
    await updatePost(ctx.db, admin, post.slug, edit);
    await runJobs();
    expect(received.map((r) => r.activity.type)).toEqual(["Update"]);
    expect(String(received[0]!.activity.object.content)).toContain("<strong>more</strong>");

    // Deleting sends Delete, once.
    received.length = 0;
    await deletePost(ctx.db, admin, post.slug);
    await runJobs();
    expect(received.map((r) => [r.activity.type, r.activity.object.id])).toEqual([["Delete", `${server.url}/ap/posts/${post.id}`]]);
    expect(await validlySigned(received[0]!)).toBeNull();

    // Undo Follow: Alice no longer follows, and the next post reaches no one.
    const undo = await signedPost({
      id: `${alice}#undo/${unique()}`,
      type: "Undo",
      actor: alice,
      object: { id: followId, type: "Follow", actor: alice, object: `${server.url}/ap/actor` },
    });
    expect(undo.status).toBe(202);
    expect(await ctx.db.select().from(fediverseFollowers)).toEqual([]);
    received.length = 0;
    await createPost(ctx.db, admin, { title: `After ${unique()}`, content: "Quiet.", category: "Fun", published: true });
    await runJobs();
    expect(received).toEqual([]);
  });

  it("files a reply from the fediverse in the moderation queue, shows it with the handle once approved, and removes it on Delete", async () => {
    const post = await createPost(ctx.db, admin, { title: `Replies ${unique()}`, content: "Tell me.", category: "Fun", published: true });
    const noteId = `${alice}/statuses/${unique()}`;
    const reply = await replyFrom(
      post.id,
      noteId,
      `<p><span class="h-card"><a href="${server.url}/ap/actor" class="u-url mention">@blog</a></span> Great point about budgets.</p>`,
    );
    expect(reply.status).toBe(202);
    // A note naming someone else as its author, or no author, is refused: the signer must be the author.
    for (const attributedTo of [`${remoteUrl}/users/bob`, null]) {
      const otherId = `${alice}/statuses/${unique()}`;
      const forged = await replyFrom(post.id, otherId, "<p>Not mine</p>", attributedTo);
      expect(forged.status).toBe(403);
      expect(((await forged.json()) as { error: string }).error).toMatch(/attributedTo must be the account that signed/);
      expect(await ctx.db.select({ id: comments.id }).from(comments).where(eq(comments.sourceUrl, otherId))).toEqual([]);
    }
    const [row] = await ctx.db
      .select({ id: comments.id, state: comments.state, handle: comments.fediverseHandle, body: comments.body, reason: comments.reason })
      .from(comments)
      .where(eq(comments.sourceUrl, noteId));
    const remoteHost = new URL(remoteUrl).host;
    expect(row).toMatchObject({ state: "pending", handle: `alice@${remoteHost}`, body: "@blog Great point about budgets." });
    expect(row?.reason).toMatch(/First reply from .*fediverse/);
    await moderateComment(ctx.db, admin, row!.id, "approved");
    const page = await (await server.fetch(`/7fs/Fun/${post.slug}`)).text();
    expect(page).toContain("Great point about budgets.");
    expect(page).toContain(`@alice@${remoteHost}`);
    expect(page).toContain(`href="${remoteUrl}/@alice"`);

    // A Delete from someone else's key does not touch it; Alice's does.
    const deletion = { id: `${noteId}#delete`, type: "Delete", actor: alice, object: { id: noteId, type: "Tombstone" } };
    expect((await signedPost(deletion, { keys: await makeKeyPair() })).status).toBe(401);
    expect(await ctx.db.select({ id: comments.id }).from(comments).where(eq(comments.sourceUrl, noteId))).toHaveLength(1);
    expect((await signedPost(deletion)).status).toBe(202);
    expect(await ctx.db.select({ id: comments.id }).from(comments).where(eq(comments.sourceUrl, noteId))).toEqual([]);
  });

  it("lets the owner remove a follower, telling their instance with a Reject", async () => {
    const { id: followId } = await follow();
    await runJobs();
    received.length = 0;
    await removeFollower(ctx.db, admin, { actorId: alice });
    expect(await ctx.db.select().from(fediverseFollowers)).toEqual([]);
    await runJobs();
    expect(received.map((r) => [r.path, r.activity.type, r.activity.object.id])).toEqual([["/users/alice/inbox", "Reject", followId]]);
    expect(await validlySigned(received[0]!)).toBeNull();
    await expect(removeFollower(ctx.db, admin, { actorId: alice })).rejects.toThrow(/does not follow/);
  });

  it("blocks a follower: removed, told with a Reject, and their later Follow, reply and like refused with 403", async () => {
    const post = await createPost(ctx.db, admin, { title: `Blocked ${unique()}`, content: "Hello.", category: "Fun", published: true });
    const { id: followId } = await follow();
    await runJobs();
    received.length = 0;
    await expect(blockFollower(ctx.db, { id: "m", role: "moderator" }, { actorId: alice })).rejects.toThrow(/Only administrators/);
    await blockFollower(ctx.db, admin, { actorId: alice });
    expect(await ctx.db.select().from(fediverseFollowers)).toEqual([]);
    expect(await ctx.db.select({ kind: commentBlocks.kind }).from(commentBlocks).where(eq(commentBlocks.value, alice))).toEqual([
      { kind: "actor" },
    ]);
    await runJobs();
    expect(received.map((r) => [r.path, r.activity.type, r.activity.object.id])).toEqual([["/users/alice/inbox", "Reject", followId]]);
    expect(await validlySigned(received[0]!)).toBeNull();
    await expect(blockFollower(ctx.db, admin, { actorId: alice })).rejects.toThrow(/does not follow/);

    const refollow = await follow();
    expect(refollow.response.status).toBe(403);
    expect(((await refollow.response.json()) as { error: string }).error).toMatch(/does not accept activities from your account/);
    const reply = await replyFrom(post.id, `${alice}/statuses/${unique()}`, "<p>Hi</p>");
    expect(reply.status).toBe(403);
    const like = await signedPost({
      id: `${alice}#likes/${unique()}`,
      type: "Like",
      actor: alice,
      object: `${server.url}/ap/posts/${post.id}`,
    });
    expect(like.status).toBe(403);
    expect(await ctx.db.select().from(fediverseFollowers)).toEqual([]);
    expect(await ctx.db.select({ id: comments.id }).from(comments).where(eq(comments.postId, post.id))).toEqual([]);

    // Removing the entry from the comments' block list lets Alice follow again.
    await removeCommentBlock(ctx.db, admin, "actor", alice);
    expect((await follow()).response.status).toBe(202);
    await ctx.db.delete(fediverseFollowers);
  });

  it("removes the followers of a host added to the comments' block list, and only theirs", async () => {
    const remoteHost = new URL(remoteUrl).host;
    const { id: followId } = await follow();
    // Another instance's follower stays.
    await ctx.db.insert(fediverseFollowers).values({
      actorId: "https://other.example/users/bob",
      handle: "bob@other.example",
      inbox: "https://other.example/users/bob/inbox",
      followId: "https://other.example/f/1",
    });
    await runJobs();
    received.length = 0;
    await addCommentBlock(ctx.db, { id: "m", role: "moderator" }, "host", remoteHost);
    expect(await ctx.db.select({ actorId: fediverseFollowers.actorId }).from(fediverseFollowers)).toEqual([
      { actorId: "https://other.example/users/bob" },
    ]);
    await runJobs();
    expect(received.map((r) => [r.activity.type, r.activity.object.id])).toEqual([["Reject", followId]]);
    expect((await follow()).response.status).toBe(403);
    await removeCommentBlock(ctx.db, admin, "host", remoteHost);
    await ctx.db.delete(fediverseFollowers);
  });

  it("changes the handle in Settings: WebFinger answers the new one (the old one too, naming the new), followers get an Update", async () => {
    const { saveFediverseSettings } = await import("~/features/fediverse/fediverse.server");
    await follow();
    await runJobs();
    received.length = 0;
    await saveFediverseSettings(ctx.db, admin, { handle: "notes" });
    for (const handle of ["notes", "blog"]) {
      const finger = await server.fetch(`/.well-known/webfinger?resource=acct:${handle}@${host}`);
      expect(finger.status).toBe(200);
      expect(((await finger.json()) as { subject: string }).subject).toBe(`acct:notes@${host}`);
    }
    expect((await server.fetch(`/.well-known/webfinger?resource=acct:someone@${host}`)).status).toBe(404);
    await runJobs();
    expect(received.map((r) => [r.activity.type, r.activity.object.id, r.activity.object.preferredUsername])).toEqual([
      ["Update", `${server.url}/ap/actor`, "notes"],
    ]);
    expect(await validlySigned(received[0]!)).toBeNull();
    await expect(saveFediverseSettings(ctx.db, admin, { handle: "no spaces" })).rejects.toThrow(/letters, digits or underscores/);
    await expect(saveFediverseSettings(ctx.db, { id: "m", role: "moderator" }, { handle: "x" })).rejects.toThrow(/Only administrators/);
    await saveFediverseSettings(ctx.db, admin, { handle: "blog" });
    await runJobs();
    await ctx.db.delete(fediverseFollowers);
  });

  // Last: the site's address changes for the rest of this database's run.
  it("moves the actor when the site address changes: Move from the old actor, movedTo there, alsoKnownAs here, the new Follow accepted", async () => {
    const oldActor = `${server.url}/ap/actor`;
    const newUrl = `http://localhost:${new URL(server.url).port}`;
    const newActor = `${newUrl}/ap/actor`;
    await follow();
    await runJobs();
    received.length = 0;
    expect(await announceActorChanges(ctx.db)).toBeNull();
    process.env.PUBLIC_URL = newUrl;
    resetEnvForTests();
    try {
      expect(await announceActorChanges(ctx.db)).toBe("moved");
      // Told once, however many instances check.
      expect(await announceActorChanges(ctx.db)).toBeNull();
      await runJobs();
      expect(received.map((r) => [r.path, r.activity.type])).toEqual([["/inbox", "Move"]]);
      expect(received[0]!.activity).toMatchObject({ actor: oldActor, object: oldActor, target: newActor });
      // Signed as the old actor (its key id; the key is the same).
      expect(await validlySigned(received[0]!)).toBeNull();

      const actorAt = async (base: string) =>
        (await (await fetch(`${base}/ap/actor`, { headers: { accept: "application/activity+json" } })).json()) as Record<string, unknown>;
      expect(await actorAt(server.url)).toMatchObject({ id: oldActor, movedTo: newActor, publicKey: { id: `${oldActor}#main-key` } });
      const current = await actorAt(newUrl);
      expect(current).toMatchObject({ id: newActor, alsoKnownAs: [oldActor], inbox: `${newUrl}/ap/inbox` });
      expect(current.movedTo).toBeUndefined();
      // The old address's WebFinger names the new actor.
      const finger = await server.fetch(`/.well-known/webfinger?resource=acct:blog@${host}`);
      expect(((await finger.json()) as { links: { rel: string; href: string }[] }).links).toContainEqual(
        expect.objectContaining({ rel: "self", href: newActor }),
      );

      // Alice's instance, having moved her, follows the new actor: accepted, from the new actor.
      received.length = 0;
      const moved = await signedPost({ id: `${alice}#follows/${unique()}`, type: "Follow", actor: alice, object: newActor });
      expect(moved.status).toBe(202);
      await runJobs();
      expect(received.map((r) => [r.activity.type, r.activity.actor])).toEqual([["Accept", newActor]]);
    } finally {
      process.env.PUBLIC_URL = server.url;
      resetEnvForTests();
      await ctx.db.delete(fediverseFollowers);
    }
  });
});
