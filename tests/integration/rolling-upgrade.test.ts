import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq, inArray, isNull, like, sql } from "drizzle-orm";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { openDatabase, type Database } from "~/server/db/client.server";
import { blogPosts, contactMessages, jobs, mailOutbox, postRevisions } from "~/server/db/schema.server";
import packageJson from "../../package.json";
import { easyAltchaToken } from "../helpers/altcha";
import { deliveredIds, waitFor } from "../helpers/contact";
import { createPostgresDatabase, type ThrowawayPostgres } from "../helpers/databases";
import { freePort } from "../helpers/postgres-cluster";
import { ownerServerEnv, type ServerProcess, startServerProcess } from "../helpers/server-process";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp";
import { buildBase } from "../helpers/upgrade-base";
import { tempDir } from "../helpers/temp-dir";

/**
 * The rolling upgrade: two instances of the previous release on one PostgreSQL and one S3 store behind
 * a load balancer are upgraded one at a time while visitors and the owner keep using the site. Each is
 * taken out of rotation, stopped, started again on this build (the first one runs the migrations, so the
 * other, still the previous release, serves on the migrated schema) and put back. Nobody may see a 5xx,
 * no acknowledged write may be lost, and the jobs (a scheduled post, the mail outbox) run exactly once.
 * Part of `npm run test:upgrade` (it builds the previous release: see tests/helpers/upgrade-base.ts).
 */
const SECRET = "rolling-upgrade-secret-0123456789abcdef";
const ADMIN = { email: "owner@rolling.example", password: "rolling upgrade pass phrase 42" };
const IDEMPOTENT = new Set(["GET", "HEAD"]);

interface Backend {
  name: string;
  port: number;
  inRotation: boolean;
  inFlight: number;
}

/**
 * The load balancer: round-robin over the backends in rotation. A deploy takes a backend out of
 * rotation and waits for its requests in flight before stopping it. Should a connection still be
 * refused (an instance gone before the balancer knew), only an idempotent GET or HEAD is sent again to
 * the next backend: a refused write answers 502, as a real balancer would, and fails the test.
 */
async function startProxy(backends: Backend[]) {
  let next = 0;
  let retries = 0;
  const pick = (skip: Set<Backend>) => {
    const usable = backends.filter((b) => b.inRotation && !skip.has(b));
    const backend = usable[next++ % Math.max(usable.length, 1)];
    return backend;
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      const tried = new Set<Backend>();
      const attempt = () => {
        const backend = pick(tried);
        if (!backend) {
          response.writeHead(503, { "retry-after": "1" }).end("no backend in rotation");
          return;
        }
        tried.add(backend);
        backend.inFlight++;
        let done = false;
        const finish = () => {
          if (!done) backend.inFlight--;
          done = true;
        };
        const upstream = http.request(
          { host: "127.0.0.1", port: backend.port, method: request.method, path: request.url, headers: request.headers, agent: false },
          (reply) => {
            response.writeHead(reply.statusCode ?? 502, { ...reply.headers, "x-backend": backend.name });
            reply.pipe(response);
            reply.on("end", finish);
            reply.on("close", finish);
          },
        );
        upstream.on("error", (error: NodeJS.ErrnoException) => {
          finish();
          if (error.code === "ECONNREFUSED" && IDEMPOTENT.has(request.method ?? "") && !response.headersSent) {
            retries++;
            attempt();
            return;
          }
          if (!response.headersSent) response.writeHead(502).end(`proxy: ${error.code ?? error.message}`);
          else response.destroy();
        });
        upstream.end(body);
      };
      attempt();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    retries: () => retries,
    /** Out of rotation, then wait (at most 30 s) for its requests in flight; answers how many were left. */
    drain: async (backend: Backend) => {
      backend.inRotation = false;
      const deadline = Date.now() + 30_000;
      while (backend.inFlight > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      return backend.inFlight;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Op = "page" | "contact" | "post-save";
interface Sample {
  op: Op;
  status: number;
  startedAt: number;
  ms: number;
  /** The instance that answered (the balancer's x-backend header). */
  backend?: string;
  error?: string;
}

const slugOf = (location: string) => /^\/7fs\/Faith\/([^/?]+)/.exec(location)?.[1] ?? "";
const formBody = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** "YYYY-MM-DDTHH:mm" in UTC (the servers run with TZ=UTC), on a minute boundary at least `ms` ahead. */
const utcMinuteAhead = (ms: number) => new Date(Math.ceil((Date.now() + ms) / 60_000) * 60_000).toISOString().slice(0, 16);

describe.skipIf(!process.env.UPGRADE_TEST)("rolling upgrade of two instances (UPGRADE_TEST=1, npm run test:upgrade)", () => {
  let postgres: ThrowawayPostgres;
  let database: Database;
  let s3: S3rver;
  let smtp: TestSmtpServer;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  const servers = new Map<string, ServerProcess>();
  const samples: Sample[] = [];
  const acknowledgedMessages: string[] = [];
  const acknowledgedPosts: { slug: string; title: string }[] = [];
  const switches: { name: string; from: number; to: number }[] = [];
  /** When A's migrations were first seen holding the contact messages table (0: not seen). */
  let migrationLockSeenAt = 0;
  const stuck: { name: string; left: number; log: string }[] = [];
  const oldOnNewSchema: { path: string; status: number }[] = [];
  let scheduled = { slug: "", title: "" };
  let scheduledPublishedDuringUpgrade = false;
  let cookie = "";

  beforeAll(async () => {
    const baseDir = buildBase();
    postgres = await createPostgresDatabase("rolling");
    s3 = new S3rver({
      port: 0,
      address: "127.0.0.1",
      silent: true,
      directory: tempDir("rolling-s3-"),
      configureBuckets: [{ name: "site-uploads", configs: [] }],
    });
    const s3Url = `http://127.0.0.1:${(await s3.run()).port}`;
    smtp = await startSmtpServer();
    const env = {
      TZ: "UTC",
      DATABASE_URL: postgres.url,
      S3_ENDPOINT: s3Url,
      S3_BUCKET: "site-uploads",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_PUBLIC_URL: `${s3Url}/site-uploads`,
      ...ownerServerEnv(SECRET, ADMIN),
      SMTP_URL: smtp.url,
      CONTACT_TO: "owner@example.com",
      CONTACT_RATE_LIMIT_PER_10_MIN: "100000",
      CONTACT_POLL_MS: "200",
      JOBS_POLL_MS: "200",
      CONTENT_VERSION_POLL_MS: "200",
    };
    const backends: Backend[] = [];
    for (const name of ["A", "B"]) {
      const port = await freePort();
      const dataDir = tempDir(`rolling-${name}-`);
      backends.push({ name, port, inRotation: true, inFlight: 0 });
      // One after the other: the previous release's first start (migrations, seed) on an empty database.
      servers.set(name, await startServerProcess({ ...env, DATA_DIR: dataDir }, { port, cwd: baseDir }));
    }
    proxy = await startProxy(backends);
    const site = proxy.url;

    const login = await fetch(`${site}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: site },
      body: JSON.stringify({ ...ADMIN, verificationToken: await easyAltchaToken(SECRET) }),
    });
    expect(login.status).toBe(200);
    cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";

    // A request that hangs counts as failed after 30 s (a balancer's upstream timeout).
    const siteFetch = (pathname: string, init: RequestInit = {}) =>
      fetch(`${site}${pathname}`, { redirect: "manual", signal: AbortSignal.timeout(30_000), ...init });
    const savePost = (fields: Record<string, string>) =>
      siteFetch("/7fs/Faith/new", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: site, cookie },
        body: formBody({ content: "Written during a rolling upgrade.", media: "[]", ...fields }),
      });
    // Due while the instances are being upgraded: published by whichever runner claims it, once.
    scheduled.title = `Scheduled during the rolling upgrade ${Date.now()}`;
    const made = await savePost({ title: scheduled.title, schedule: "on", publishAt: utcMinuteAhead(60_000) });
    expect(made.status).toBe(302);
    scheduled = { ...scheduled, slug: slugOf(made.headers.get("location") ?? "") };
    const firstPost = await savePost({ title: `Before the upgrade ${Date.now()}`, published: "on" });
    expect(firstPost.status).toBe(302);
    const postPath = firstPost.headers.get("location") ?? "/";

    // The visitors and the owner: four loops of page reads, contact messages and post saves.
    let running = true;
    const timed = async (op: Op, run: () => Promise<Response>): Promise<Response | undefined> => {
      const startedAt = Date.now();
      try {
        const response = await run();
        if (Date.now() - startedAt > 5_000) console.log(`slow: ${op} ${response.status} ${Date.now() - startedAt} ms`);
        samples.push({
          op,
          status: response.status,
          startedAt,
          ms: Date.now() - startedAt,
          backend: response.headers.get("x-backend") ?? "",
        });
        return response;
      } catch (error) {
        samples.push({ op, status: 0, startedAt, ms: Date.now() - startedAt, error: String(error) });
        return undefined;
      }
    };
    const loop = async (worker: number) => {
      for (let i = 0; running; i++) {
        const step = (i + worker) % 6;
        if (step === 1) {
          const response = await timed("contact", async () =>
            siteFetch("/api/send-contact-email", {
              method: "POST",
              headers: { "content-type": "application/json", origin: site },
              body: JSON.stringify({
                name: `Visitor ${worker}`,
                email: `visitor${worker}@example.com`,
                message: `Message ${worker}.${i} during the rolling upgrade`,
                turnstileToken: await easyAltchaToken(SECRET),
              }),
            }),
          );
          if (response?.status === 201) acknowledgedMessages.push(z.object({ id: z.string() }).parse(await response.json()).id);
          else await response?.body?.cancel();
        } else if (step === 4 && worker % 2 === 0) {
          const title = `Saved during the rolling upgrade ${worker}.${i}`;
          const response = await timed("post-save", () => savePost({ title, published: "on" }));
          await response?.body?.cancel();
          if (response?.status === 302) acknowledgedPosts.push({ title, slug: slugOf(response.headers.get("location") ?? "") });
        } else {
          const page = ["/", "/7fs/Faith", postPath][i % 3] ?? "/";
          const response = await timed("page", () => siteFetch(page));
          await response?.text();
        }
      }
    };
    const loops = Promise.all([0, 1, 2, 3].map(loop));

    database = await openDatabase({ kind: "postgres", url: postgres.url, poolSize: 2 });
    const scheduledPublished = async () =>
      (await database.db.select({ published: blogPosts.published }).from(blogPosts).where(eq(blogPosts.slug, scheduled.slug)))[0]
        ?.published === true;

    const upgrade = async (backend: Backend) => {
      const from = Date.now();
      const left = await proxy.drain(backend);
      const previous = servers.get(backend.name);
      if (left > 0) stuck.push({ name: backend.name, left, log: previous?.stderr().slice(-3000) ?? "" });
      expect(await previous?.stop()).toBe(0);
      const dataDir = tempDir(`rolling-${backend.name}-new-`);
      // The first new build runs the migrations at its start: note when they hold the contact messages table.
      let watching = backend.name === "A";
      const watcher = (async () => {
        while (watching && !migrationLockSeenAt) {
          const { rows } = z
            .object({ rows: z.array(z.object({ held: z.boolean() })) })
            .parse(
              await database.db.execute(
                sql`select exists (select 1 from pg_locks l join pg_class c on c.oid = l.relation where c.relname = 'contact_messages' and l.mode = 'AccessExclusiveLock' and l.granted) as held`,
              ),
            );
          if (rows[0]?.held) migrationLockSeenAt = Date.now();
          else await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      const upgraded = await startServerProcess({ ...env, DATA_DIR: dataDir }, { port: backend.port }).finally(() => {
        watching = false;
      });
      await watcher;
      servers.set(backend.name, upgraded);
      await waitFor(async () => (await upgraded.fetch("/readyz")).status === 200, 60_000, `${backend.name} ready`);
      backend.inRotation = true;
      switches.push({ name: backend.name, from, to: Date.now() });
    };

    try {
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const [a, b] = backends as [Backend, Backend];
      // A slow mail server while A switches: B, the previous release, always has messages in flight
      // (claimed, not yet marked sent) when A's migrations run, the moment that once sent one twice.
      smtp.answerDelayMs = 3_000;
      await upgrade(a);
      smtp.answerDelayMs = 0;
      // B is the previous release on the migrated schema: its public and admin paths, directly.
      const old = servers.get("B");
      for (const [pathname, headers] of [
        ["/", {}],
        ["/7fs/Faith", {}],
        [postPath, {}],
        ["/readyz", {}],
        ["/admin", { cookie }],
        ["/admin/blog", { cookie }],
        ["/admin/messages", { cookie }],
      ] as const) {
        const response = await old!.fetch(pathname, { headers });
        await response.body?.cancel();
        oldOnNewSchema.push({ path: pathname, status: response.status });
      }
      // Mixed versions until the scheduled post is out, so its job runs with both kinds of runner polling.
      await waitFor(scheduledPublished, 180_000, "the scheduled post");
      scheduledPublishedDuringUpgrade = true;
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      await upgrade(b);
      await new Promise((resolve) => setTimeout(resolve, 3_000));
    } finally {
      running = false;
      await loops;
    }
  }, 600_000);

  afterAll(async () => {
    await Promise.all([...servers.values()].map((s) => s.stop()));
    await proxy?.close();
    await database?.close();
    await smtp?.close();
    await s3?.close();
    await postgres?.drop();
  });

  it("both instances run this build at the end", async () => {
    for (const server of servers.values())
      expect(await (await server.fetch("/readyz")).json()).toMatchObject({ status: "ready", version: packageJson.version });
  });

  it("prints the figures", () => {
    const during = (s: Sample) => switches.some((w) => s.startedAt >= w.from && s.startedAt <= w.to);
    const max = (list: Sample[]) => Math.max(0, ...list.map((s) => s.ms));
    const count = (op: Op) => samples.filter((s) => s.op === op).length;
    console.log(
      [
        `rolling upgrade: ${samples.length} requests (${count("page")} page reads, ${count("contact")} contact messages, ${count("post-save")} post saves), ${proxy.retries()} GET retries by the proxy`,
        `writes acknowledged: ${acknowledgedMessages.length} messages, ${acknowledgedPosts.length} posts`,
        `switches: ${switches.map((w) => `${w.name} ${((w.to - w.from) / 1000).toFixed(1)} s`).join(", ")}`,
        `max latency: ${max(samples.filter(during))} ms during the switches, ${max(samples)} ms overall`,
        `statuses: ${JSON.stringify(Object.fromEntries([...new Set(samples.map((s) => s.status))].map((st) => [st, samples.filter((s) => s.status === st).length])))}`,
      ].join("\n"),
    );
    expect(samples.length).toBeGreaterThan(0);
  });

  it("the previous release serves its public and admin paths on the migrated schema", () => {
    expect(oldOnNewSchema).toEqual(oldOnNewSchema.map(({ path: p }) => ({ path: p, status: 200 })));
  });

  it("each instance had answered all its requests 30 s after leaving the rotation", () => {
    for (const { name, left, log } of stuck) console.log(`${name}: ${left} requests still in flight; the end of its log:\n${log}`);
    expect(stuck.map(({ name, left }) => ({ name, left }))).toEqual([]);
  });

  it("no request saw a 5xx or a failed connection", () => {
    const bad = samples.filter((s) => s.status === 0 || s.status >= 500);
    const phase = (s: Sample) => {
      const [a, b] = switches;
      if (!a || s.startedAt < a.from) return "old A + old B";
      if (s.startedAt <= a.to) return "A switching";
      if (!b || s.startedAt < b.from) return "new A + old B";
      return s.startedAt <= b.to ? "B switching" : "new A + new B";
    };
    console.log(
      `failed requests: ${JSON.stringify(bad.map((s) => `${s.op} ${s.status} ${phase(s)} ${s.backend ?? "?"}${s.error ? ` ${s.error}` : ""}`))}`,
    );
    expect(bad.map((s) => ({ op: s.op, status: s.status, phase: phase(s) }))).toEqual([]);
    expect(samples.filter((s) => s.op === "contact").every((s) => s.status === 201)).toBe(true);
    expect(samples.filter((s) => s.op === "post-save").every((s) => s.status === 302)).toBe(true);
    expect(acknowledgedMessages.length).toBeGreaterThan(10);
    expect(acknowledgedPosts.length).toBeGreaterThan(3);
  });

  it("every acknowledged write is stored", async () => {
    const messages = await database.db
      .select({ id: contactMessages.id })
      .from(contactMessages)
      .where(inArray(contactMessages.id, acknowledgedMessages));
    expect(messages).toHaveLength(acknowledgedMessages.length);
    const posts = await database.db
      .select({ slug: blogPosts.slug, title: blogPosts.title })
      .from(blogPosts)
      .where(
        inArray(
          blogPosts.slug,
          acknowledgedPosts.map((p) => p.slug),
        ),
      );
    expect(posts.sort((x, y) => x.slug.localeCompare(y.slug))).toEqual([...acknowledgedPosts].sort((x, y) => x.slug.localeCompare(y.slug)));
    console.log(
      `writes stored: ${messages.length} of ${acknowledgedMessages.length} messages, ${posts.length} of ${acknowledgedPosts.length} posts`,
    );
  });

  it("every acknowledged contact message is delivered exactly once", async () => {
    await waitFor(() => new Set(deliveredIds(smtp.received)).size >= acknowledgedMessages.length, 120_000, "the deliveries");
    // Every outbox polls every 200 ms: give a second delivery time to show before counting.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const delivered = deliveredIds(smtp.received);
    const twice = delivered.filter((id, i) => delivered.indexOf(id) !== i);
    if (twice.length > 0) {
      // Which loop sent it: the previous release's (its columns) or the mail outbox (its row), and why again.
      const rows = await database.db
        .select({
          id: contactMessages.id,
          createdAt: contactMessages.createdAt,
          legacyState: contactMessages.legacyDeliveryState,
          legacyDeliveredAt: contactMessages.legacyDeliveredAt,
          legacyAttempts: contactMessages.legacyAttempts,
          mailState: mailOutbox.state,
          mailAttempts: mailOutbox.attempts,
          mailError: mailOutbox.lastError,
          mailSentAt: mailOutbox.sentAt,
        })
        .from(contactMessages)
        .leftJoin(mailOutbox, eq(mailOutbox.id, contactMessages.mailId))
        .where(inArray(contactMessages.id, twice));
      console.log("delivered twice:", JSON.stringify(rows, null, 1));
      // And the mails themselves: which release's template, to whom, when (their headers).
      for (const id of twice)
        for (const mail of smtp.received.filter((m) => m.raw.includes(id)))
          console.log(`mail with ${id} to ${mail.to.join(",")}:\n${mail.raw.split(/\r?\n\r?\n/)[0]}`);
    }
    expect(twice).toEqual([]);
    expect(new Set(delivered)).toEqual(new Set(acknowledgedMessages));
    // Handed to the mail server before A's migrations took the table, and without a mail row: B claimed
    // them and was still sending them when the migrations ran (one it had marked sent before got a 'sent'
    // mail row from 0028), and sent them alone.
    const sentBefore = deliveredIds(smtp.received.filter((mail) => mail.dataAt < migrationLockSeenAt));
    const inFlight = sentBefore.length
      ? await database.db
          .select({ id: contactMessages.id })
          .from(contactMessages)
          .where(and(isNull(contactMessages.mailId), inArray(contactMessages.id, sentBefore)))
      : [];
    console.log(
      `deliveries: ${delivered.length} mails for ${acknowledgedMessages.length} acknowledged messages; ` +
        (migrationLockSeenAt
          ? `${inFlight.length} in flight on B when A's migrations took the table, sent by B alone`
          : "A's migrations were not seen holding the table"),
    );
  }, 180_000);

  it("the post scheduled before the upgrade is published once, during it", async () => {
    expect(scheduledPublishedDuringUpgrade).toBe(true);
    const [post] = await database.db
      .select({ id: blogPosts.id, title: blogPosts.title })
      .from(blogPosts)
      .where(eq(blogPosts.slug, scheduled.slug));
    expect(post?.title).toBe(scheduled.title);
    const revisions = await database.db
      .select({ kind: postRevisions.kind })
      .from(postRevisions)
      .where(and(eq(postRevisions.postId, post!.id), eq(postRevisions.kind, "publish")));
    expect(revisions).toHaveLength(1);
    const runs = await database.db
      .select({ state: jobs.state, attempts: jobs.attempts })
      .from(jobs)
      .where(like(jobs.dedupeKey, `publish:${post!.id}:%`));
    expect(runs).toEqual([{ state: "done", attempts: 1 }]);
  });
});
