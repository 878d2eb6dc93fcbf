import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import S3rver from "s3rver";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase, type Database } from "~/server/db/client.server";
import { taskLeases, uploads } from "~/server/db/schema.server";
import { STORAGE_UNAVAILABLE } from "~/server/storage.server";
import { waitFor } from "../helpers/contact";
import { createPostgresDatabase, type ThrowawayPostgres } from "../helpers/databases";
import { makePost } from "../helpers/factories";
import { ownerServerEnv, type ServerProcess, signInTo, startServerProcess, uploadPng } from "../helpers/server-process";
import { z } from "zod";
import { tempDir } from "../helpers/temp-dir";

/**
 * The bucket goes away (docs/decisions/0064-faults.md): a production server on PostgreSQL and an S3
 * store (s3rver) that is stopped for FAULT_S3_OUTAGE_SECONDS (default 40) and started again on the
 * same port and directory. Uploads fail with a clear 503 and leave no row behind; pages with images
 * still render; the scheduled backup (to the same store) fails during the outage and succeeds on its retry.
 */
// Longer than the backup interval below (36 s, the shortest allowed), so a backup always falls due in it.
const OUTAGE_MS = Number(process.env.FAULT_S3_OUTAGE_SECONDS ?? 40) * 1000;
const SECRET = "fault-s3-secret-0123456789abcdef0123";
const ADMIN = { email: "admin@fault-s3.example", password: "fault s3 pass phrase 42" };
const BUCKET = "site-uploads";
// Minutes of outages on a shared machine: run by `npm run test:faults` (FAULT_TESTS=1), not by `npm test`.
const skipReason = process.env.FAULT_TESTS ? inject("postgresSkipReason") : "run with npm run test:faults";

(skipReason === null ? describe : describe.skip)(`S3 unavailable${skipReason ? ` (skipped: ${skipReason})` : ""}`, () => {
  let postgres: ThrowawayPostgres;
  let database: Database;
  let s3: S3rver;
  let s3Port = 0;
  let s3Dir = "";
  let server: ServerProcess;

  const startS3 = async (port: number) => {
    s3 = new S3rver({ port, address: "127.0.0.1", silent: true, directory: s3Dir, configureBuckets: [{ name: BUCKET, configs: [] }] });
    const address: AddressInfo = await s3.run();
    return address.port;
  };

  beforeAll(async () => {
    // Made here, not in the suite's body: a skipped suite's body still runs, and its hooks do not.
    s3Dir = tempDir("fault-s3-");
    postgres = await createPostgresDatabase("faults3");
    s3Port = await startS3(0);
    const s3Url = `http://127.0.0.1:${s3Port}`;
    server = await startServerProcess({
      DATABASE_URL: postgres.url,
      DATA_DIR: tempDir("fault-s3-data-"),
      S3_ENDPOINT: s3Url,
      S3_BUCKET: BUCKET,
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      ...ownerServerEnv(SECRET, ADMIN),
      // A backup every 36 s into the same store; a failed one is tried again after the interval.
      BACKUP_DIR: `s3://${BUCKET}/backups`,
      BACKUP_INTERVAL_HOURS: "0.01",
      JOBS_POLL_MS: "200",
    });
    database = await openDatabase({ kind: "postgres", url: postgres.url, poolSize: 1 });
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await database?.close();
    await s3?.close().catch(() => undefined);
    await postgres?.drop();
  });

  it("refuses uploads clearly while the bucket is away, keeps pages up, and the backup succeeds on its retry", async () => {
    const cookie = await signInTo(server, ADMIN, SECRET);
    const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#3366aa" } })
      .png()
      .toBuffer();
    const upload = () => uploadPng(server, cookie, png);
    const uploaded = await upload();
    expect(uploaded.status).toBe(201);
    const { images } = z.object({ images: z.array(z.object({ url: z.string() })) }).parse(await uploaded.json());
    const imageUrl = images[0]?.url ?? "";
    const post = await makePost(database.db, {
      category: "Faith",
      published: true,
      title: "A post with a picture",
      content: `Before the outage.\n\n![A blue picture](${imageUrl})`,
    });
    const countUploads = () => database.db.$count(uploads);
    const uploadsBefore = await countUploads();

    const stoppedAt = Date.now();
    await s3.close();
    const refusedUploads: Array<{ status: number; retryAfter: string | null; error: string; ms: number }> = [];
    const pages: number[] = [];
    while (Date.now() - stoppedAt < OUTAGE_MS) {
      const started = Date.now();
      const response = await upload();
      const body = z.object({ error: z.string() }).safeParse(await response.json());
      refusedUploads.push({
        status: response.status,
        retryAfter: response.headers.get("retry-after"),
        error: body.success ? body.data.error : "",
        ms: Date.now() - started,
      });
      // The post page, uncached (a session cookie), renders with its image markup.
      const page = await server.fetch(`/7fs/Faith/${post.slug}`, { headers: { cookie } });
      const html = await page.text();
      pages.push(page.status === 200 && html.includes("A blue picture") ? 200 : page.status);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    const readyDuring = (await server.fetch("/readyz")).status;
    const uploadsAfterOutage = await countUploads();
    expect(await startS3(s3Port)).toBe(s3Port);
    const restartedAt = Date.now();
    await waitFor(async () => (await server.fetch("/readyz")).status === 200, 30_000, "/readyz to answer 200 again");
    const readyAfterMs = Date.now() - restartedAt;
    const again = await upload();
    // The backup due during the outage failed; its retry (an interval later) writes one.
    const backupsStored = async () => {
      const listing = await fetch(`http://127.0.0.1:${s3Port}/${BUCKET}?list-type=2&prefix=backups/`);
      return [...(await listing.text()).matchAll(/<Key>(backups\/backup-[^<]+)<\/Key>/g)].length;
    };
    await waitFor(async () => (await backupsStored()) > 0, 60_000, "a backup to be written after the outage");

    console.info(
      "[fault] S3 outage",
      JSON.stringify({
        outageMs: restartedAt - stoppedAt,
        uploadsTried: refusedUploads.length,
        statuses: refusedUploads.map((u) => u.status),
        slowestUploadMs: Math.max(...refusedUploads.map((u) => u.ms)),
        pages,
        readyDuring,
        readyAfterMs,
        backupFailedDuringOutage: server.stderr().includes("recurring task failed"),
      }),
    );
    expect(refusedUploads.length).toBeGreaterThan(0);
    for (const refused of refusedUploads) {
      expect(refused).toMatchObject({ status: 503, error: STORAGE_UNAVAILABLE });
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    }
    // Nothing half-stored: no row for a file the bucket never got.
    expect(uploadsAfterOutage).toBe(uploadsBefore);
    expect(pages.every((status) => status === 200)).toBe(true);
    expect(readyDuring).toBe(503);
    expect(again.status).toBe(201);
    expect(await countUploads()).toBe(uploadsBefore + 1);
    expect(server.stderr()).toMatch(
      /"task":"backup\.scheduled"[^\n]*recurring task failed|recurring task failed[^\n]*"task":"backup\.scheduled"/,
    );
    // The lease records the run's outcome just after the archive is stored.
    await waitFor(
      async () =>
        (await database.db.select({ lastError: taskLeases.lastError }).from(taskLeases).where(eq(taskLeases.name, "backup.scheduled")))[0]
          ?.lastError === null,
      30_000,
      "the backup task to record its success",
    );
    // The image uploaded before the outage is still served.
    expect((await fetch(imageUrl.startsWith("http") ? imageUrl : `${server.url}${imageUrl}`)).status).toBe(200);
  }, 150_000);
});
