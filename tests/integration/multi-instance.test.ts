import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq, inArray, sql } from "drizzle-orm";
import S3rver from "s3rver";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { openDatabase, type Database } from "~/server/db/client.server";
import { publishJobKey, syncPublishJob } from "~/features/posts/write/scheduling.server";
import { statisticsReport } from "~/features/analytics/reports.server";
import { BOOKING_TEXT } from "~/features/booking/booking-schema";
import { activeCallType, listSlots } from "~/features/booking/booking.server";
import {
  analyticsViews,
  blogPosts,
  bookingCallTypes,
  bookings,
  bookingWeeklyHours,
  contactMessages,
  jobs,
  mailOutbox,
  postRevisions,
} from "~/server/db/schema.server";
import { easyAltchaToken } from "../helpers/altcha";
import { deliveredIds, waitFor } from "../helpers/contact";
import { createPostgresDatabase, type ThrowawayPostgres } from "../helpers/databases";
import { makePost } from "../helpers/factories";
import { startServerProcess, type ServerProcess } from "../helpers/server-process";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp";
import { tempDir } from "../helpers/temp-dir";

/**
 * The topology of compose.yaml with processes: two production servers (`node server.js`) on one
 * PostgreSQL database and one S3-compatible store (s3rver), behind no shared memory at all. What one
 * instance writes, the other serves at once; limits and single-delivery hold across both.
 */
const SECRET = "multi-instance-secret-0123456789abcdef";
const ADMIN = { email: "admin@multi.example", password: "multi instance pass phrase 42" };
const LOGIN_LIMIT = 6;
const skipReason = inject("postgresSkipReason");

(skipReason === null ? describe : describe.skip)(
  `two instances on one PostgreSQL and one S3${skipReason ? ` (skipped: ${skipReason})` : ""}`,
  () => {
    let postgres: ThrowawayPostgres;
    let database: Database;
    let s3: S3rver;
    let s3Url = "";
    let smtp: TestSmtpServer;
    let a: ServerProcess;
    let b: ServerProcess;
    let cookie = "";

    beforeAll(async () => {
      postgres = await createPostgresDatabase("multi");
      s3 = new S3rver({
        port: 0,
        address: "127.0.0.1",
        silent: true,
        directory: tempDir("multi-s3-"),
        configureBuckets: [{ name: "site-uploads", configs: [] }],
      });
      const s3Address: AddressInfo = await s3.run();
      s3Url = `http://127.0.0.1:${s3Address.port}`;
      smtp = await startSmtpServer();
      const env = {
        DATABASE_URL: postgres.url,
        S3_ENDPOINT: s3Url,
        S3_BUCKET: "site-uploads",
        S3_ACCESS_KEY_ID: "S3RVER",
        S3_SECRET_ACCESS_KEY: "S3RVER",
        // Browsers fetch uploads from the bucket itself (s3rver serves objects publicly), as from a CDN.
        S3_PUBLIC_URL: `${s3Url}/site-uploads`,
        AUTH_SECRET: SECRET,
        SEED_DEMO_CONTENT: "false",
        INITIAL_ADMIN_EMAIL: ADMIN.email,
        INITIAL_ADMIN_PASSWORD: ADMIN.password,
        LOGIN_RATE_LIMIT_PER_IP: String(LOGIN_LIMIT),
        SMTP_URL: smtp.url,
        CONTACT_TO: "owner@example.com",
        CONTACT_RATE_LIMIT_PER_10_MIN: "1000",
        CONTACT_POLL_MS: "200",
        JOBS_POLL_MS: "200",
        CONTENT_VERSION_POLL_MS: "200",
      };
      // Both start at once: migrations and the first-start seed must not trip over each other.
      // Each has a data directory of its own, as on separate machines: only PostgreSQL and S3 are shared.
      const own = () => ({ ...env, DATA_DIR: tempDir("multi-data-") });
      [a, b] = await Promise.all([startServerProcess(own()), startServerProcess(own())]);
      database = await openDatabase({ kind: "postgres", url: postgres.url, poolSize: 2 });
    }, 180_000);

    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await database?.close();
      await smtp?.close();
      await s3?.close();
      await postgres?.drop();
    });

    const loginWithToken = async (server: ServerProcess, password: string) =>
      server.fetch("/api/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.url },
        body: JSON.stringify({ email: ADMIN.email, password, verificationToken: await easyAltchaToken(SECRET) }),
      });

    it("both are ready", async () => {
      for (const server of [a, b])
        expect(await (await server.fetch("/readyz")).json()).toMatchObject({
          status: "ready",
          database: "ok",
          migrations: "ok",
          storage: "ok",
        });
    });

    it("a session started on one works on the other", async () => {
      const response = await loginWithToken(a, ADMIN.password);
      expect(response.status).toBe(200);
      cookie = (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
      expect(cookie).toMatch(/=/);
      expect((await b.fetch("/admin")).status).not.toBe(200);
      expect((await b.fetch("/admin", { headers: { cookie } })).status).toBe(200);
    });

    it("a post created on one is on the other at once, on its page and in its category", async () => {
      const title = `Written on A ${Date.now()}`;
      // B has rendered the category before the write, so anything it cached must not be served stale.
      expect(await (await b.fetch("/7fs/Faith")).text()).not.toContain(title);
      const created = await a.fetch("/7fs/Faith/new", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: a.url, cookie },
        body: new URLSearchParams({ title, content: "Shared through PostgreSQL.", published: "on", media: "[]" }).toString(),
      });
      expect(created.status).toBe(302);
      const location = created.headers.get("location") ?? "";
      expect(location).toMatch(/^\/7fs\/Faith\/written-on-a-/);
      const page = await b.fetch(location);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(title);
      expect(await (await b.fetch("/7fs/Faith")).text()).toContain(title);
    });

    it("an image uploaded through one is in the shared bucket, linked at S3_PUBLIC_URL, and the other redirects there", async () => {
      const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#3366aa" } })
        .png()
        .toBuffer();
      const form = new FormData();
      form.append("files", new Blob([new Uint8Array(png)], { type: "image/png" }), "shared.png");
      const uploaded = await a.fetch("/api/uploads", { method: "POST", headers: { origin: a.url, cookie }, body: form });
      expect(uploaded.status).toBe(201);
      const { images } = z.object({ images: z.array(z.object({ url: z.string() })) }).parse(await uploaded.json());
      const url = images[0]?.url ?? "";
      expect(url.startsWith(`${s3Url}/site-uploads/blog-images/`)).toBe(true);
      const served = await fetch(url);
      expect(served.status).toBe(200);
      expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(64);
      const sitePath = `/uploads/${url.slice(`${s3Url}/site-uploads/`.length)}`;
      for (const server of [a, b]) {
        const redirect = await server.fetch(sitePath);
        expect(redirect.status).toBe(301);
        expect(redirect.headers.get("location")).toBe(url);
      }
    });

    it("warns at start-up when PostgreSQL is shared but files are not (no S3)", async () => {
      expect(a.stderr()).not.toContain("S3 is not");
      const alone = await startServerProcess({
        DATABASE_URL: postgres.url,
        DATA_DIR: tempDir("multi-data-"),
        AUTH_SECRET: SECRET,
      });
      try {
        expect(alone.stderr()).toContain(
          "DATABASE_URL is set but S3 is not (S3_BUCKET): uploaded files are kept in this instance's own directory.",
        );
      } finally {
        await alone.stop();
      }
    });

    it("the login limit reached on one holds on the other", async () => {
      // The successful sign-in above used one attempt of this IP's window; the rest alternate.
      let attempts = 1;
      let refused: Response | undefined;
      for (let i = 0; i < LOGIN_LIMIT * 2 && !refused; i++) {
        const server = i % 2 === 0 ? b : a;
        const response = await loginWithToken(server, `wrong password ${i}`);
        attempts++;
        if (response.status === 429) refused = response;
        else expect(response.status).toBe(401);
      }
      // Counted per instance, each would allow LOGIN_LIMIT: the shared count refuses right after it.
      expect(refused?.status).toBe(429);
      expect(attempts).toBe(LOGIN_LIMIT + 1);
      expect((await loginWithToken(a, ADMIN.password)).status).toBe(429);
      expect((await loginWithToken(b, ADMIN.password)).status).toBe(429);
    });

    it("100 contact messages sent across both are delivered exactly once", async () => {
      const ids: string[] = [];
      const send = async (i: number) => {
        const server = i % 2 === 0 ? a : b;
        const response = await server.fetch("/api/send-contact-email", {
          method: "POST",
          headers: { "content-type": "application/json", origin: server.url },
          body: JSON.stringify({
            name: `Sender ${i}`,
            email: `sender${i}@example.com`,
            message: `Message number ${i}`,
            turnstileToken: await easyAltchaToken(SECRET),
          }),
        });
        expect(response.status).toBe(201);
        ids.push(z.object({ id: z.string() }).parse(await response.json()).id);
      };
      for (let batch = 0; batch < 10; batch++) await Promise.all(Array.from({ length: 10 }, (_, j) => send(batch * 10 + j)));
      expect(new Set(ids).size).toBe(100);
      await waitFor(() => new Set(deliveredIds(smtp.received)).size >= 100, 60_000, "100 deliveries");
      // Both outboxes poll every 200 ms: give a duplicate claim time to show before counting.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const delivered = deliveredIds(smtp.received);
      expect(delivered).toHaveLength(100);
      expect(new Set(delivered)).toEqual(new Set(ids));
      const rows = await database.db
        .select({ state: mailOutbox.state, attempts: mailOutbox.attempts, sentAt: mailOutbox.sentAt })
        .from(contactMessages)
        .innerJoin(mailOutbox, eq(mailOutbox.id, contactMessages.mailId));
      expect(rows.filter((r) => ids.length > 0 && r.state === "sent" && r.attempts === 1 && r.sentAt instanceof Date)).toHaveLength(100);
    });

    it("a scheduled post is published exactly once", async () => {
      // Ten drafts due at the same instant: both instances' job runners race for every one of them.
      const at = new Date(Date.now() + 3_000);
      const posts = [];
      for (let i = 0; i < 10; i++) {
        const post = await makePost(database.db, { category: "Faith", published: false, title: `Scheduled ${i} ${Date.now()}` });
        await database.db.transaction(async (tx) => {
          await tx.update(blogPosts).set({ scheduledAt: at }).where(eq(blogPosts.id, post.id));
          await syncPublishJob(tx, post.id, null, at);
        });
        posts.push(post);
      }
      const ids = posts.map((p) => p.id);
      expect((await b.fetch(`/7fs/Faith/${posts[0]?.slug ?? ""}`)).status).toBe(404);
      const published = async () =>
        (
          await database.db
            .select({ id: blogPosts.id })
            .from(blogPosts)
            .where(and(inArray(blogPosts.id, ids), eq(blogPosts.published, true)))
        ).length === ids.length;
      await waitFor(published, 30_000, "the scheduled posts to be published");
      // Both runners poll every 200 ms: give a second publication time to show before counting.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const revisions = await database.db
        .select({ postId: postRevisions.postId })
        .from(postRevisions)
        .where(and(inArray(postRevisions.postId, ids), eq(postRevisions.kind, "publish")));
      expect(revisions.map((r) => r.postId).sort()).toEqual([...ids].sort());
      const runs = await database.db
        .select({ state: jobs.state, attempts: jobs.attempts })
        .from(jobs)
        .where(
          inArray(
            jobs.dedupeKey,
            ids.map((id) => publishJobKey(id, at)),
          ),
        );
      expect(runs).toHaveLength(ids.length);
      expect(runs.every((r) => r.state === "done" && r.attempts === 1)).toBe(true);
      for (const server of [a, b]) {
        const page = await server.fetch(`/7fs/Faith/${posts[0]?.slug ?? ""}`);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain(posts[0]?.title ?? "missing");
      }
    });
    it("two visitors booking one slot at once, one on each instance: one gets it, the other hears it was taken; neither lists it then", async () => {
      await database.db.insert(bookingCallTypes).values({
        slug: "race",
        name: "Race call",
        durationMinutes: 30,
        incrementMinutes: 30,
        minimumNoticeMinutes: 60,
        horizonDays: 7,
        displayOrder: 0,
      });
      await database.db
        .insert(bookingWeeklyHours)
        .values([1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, startMinute: 0, endMinute: 1440 })));
      const { slots } = await listSlots(database.db, await activeCallType(database.db, "race"));
      const slot = slots[4];
      if (!slot) throw new Error("no slot offered");
      // Each instance's slot page lists the time (and keeps its slots in memory), until one of them books it.
      const listed = async (server: ServerProcess) =>
        (await (await server.fetch(`/book?type=race&day=${slot.day}`)).text()).includes(`dateTime="${new Date(slot.start).toISOString()}"`);
      expect([await listed(a), await listed(b)]).toEqual([true, true]);
      // Asked again, each answers from its page cache (docs/decisions/0083-slot-page-cache.md), until the booking.
      expect([await listed(a), await listed(b)]).toEqual([true, true]);
      const book = async (server: ServerProcess, who: string) =>
        server.fetch("/book", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
          body: new URLSearchParams({
            callType: "race",
            start: new Date(slot.start).toISOString(),
            name: `Visitor ${who}`,
            email: `race-${who}@example.com`,
            timeZone: "Europe/Berlin",
            verificationToken: await easyAltchaToken(SECRET),
          }),
        });
      const responses = await Promise.all([book(a, "a"), book(b, "b")]);
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses).toEqual([303, 409]);
      const winner = responses.find((r) => r.status === 303);
      expect(winner?.headers.get("location")).toMatch(/^\/book\/confirmed\/[0-9a-f-]{36}\?t=/);
      const loser = responses.find((r) => r.status === 409);
      expect(await loser?.text()).toContain(BOOKING_TEXT.taken);
      const rows = await database.db
        .select({ email: bookings.email, status: bookings.status })
        .from(bookings)
        .where(eq(bookings.startsAt, new Date(slot.start)));
      expect(rows).toHaveLength(1);
      expect([await listed(a), await listed(b)]).toEqual([false, false]);
    });

    it("page views counted on both sum in the report: none lost, one visitor and one visit per reader across instances", async () => {
      const campaign = `multi-${Date.now().toString(36)}`;
      // Both instances behind one site name, as behind a load balancer: the visitor id covers the site's
      // host. (localhost: with no site address set, the only name the site answers besides its address.)
      const view = (server: ServerProcess, reader: number) =>
        new Promise<number>((resolve, reject) => {
          const request = http.get(
            new URL(`/?utm_campaign=${campaign}`, server.url),
            {
              headers: {
                host: "localhost",
                "user-agent": `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.${reader} Safari/537.36`,
              },
            },
            (response) => {
              response.resume();
              response.on("end", () => resolve(response.statusCode ?? 0));
            },
          );
          request.on("error", reject);
        });
      const stored = () =>
        database.db
          .select({
            views: sql<number>`sum(${analyticsViews.views})::int`,
            visitors: sql<number>`count(distinct ${analyticsViews.visitorId})::int`,
          })
          .from(analyticsViews)
          .where(eq(analyticsViews.utmCampaign, campaign))
          .then((rows) => rows[0] ?? { views: 0, visitors: 0 });
      const readers = Array.from({ length: 20 }, (_, i) => i);
      // Each reader's first view on A, stored by A's flush; then nine more, alternately on B and A.
      expect(await Promise.all(readers.map((r) => view(a, r)))).toEqual(readers.map(() => 200));
      await waitFor(async () => (await stored()).views === 20, 30_000, "A's first views to be stored");
      for (let round = 0; round < 9; round++) {
        const statuses = await Promise.all(readers.map((r) => view(round % 2 === 0 ? b : a, r)));
        expect(statuses.every((status) => status === 200)).toBe(true);
      }
      await waitFor(async () => (await stored()).views === 200, 30_000, "every view to be stored");
      // Both instances used the same daily salt from the database: twenty visitors, not forty.
      expect(await stored()).toEqual({ views: 200, visitors: 20 });
      const admin = { id: "multi-admin", role: "admin" as const };
      const report = await statisticsReport(database.db, admin, { period: "7d", filter: { dimension: "campaign", value: campaign } });
      expect(report.totals).toMatchObject({ views: 200, visitors: 20, visits: 20, bounces: 0 });
    });
  },
);
