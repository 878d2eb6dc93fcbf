import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import packageJson from "../../package.json";
import { easyAltchaToken } from "../helpers/altcha";
import { waitFor } from "../helpers/contact";
import { createPostgresDatabase, type ThrowawayPostgres } from "../helpers/databases";
import { ownerServerEnv, type ServerProcess, startServerProcess } from "../helpers/server-process";
import { buildBase } from "../helpers/upgrade-base";
import { tempDir } from "../helpers/temp-dir";

/**
 * The upgrade test: the previous release is built from its own commit, started on a fresh data
 * directory (embedded PGlite) and on a fresh PostgreSQL database, and filled through its own HTTP
 * interface; then it is stopped and THIS build starts on the same data, and everything must still be
 * there and work. The base is the previous release tag, or (until the first tag exists) a pinned
 * commit (tests/helpers/upgrade-base.ts). It builds another checkout (a minute or more), so it is not part
 * of `npm test`: run `npm run build && npm run test:upgrade`.
 */
const SECRET = "upgrade-test-secret-0123456789abcdef";
const ADMIN = { email: "owner@example.com", password: "upgrade keeper phrase 42" };

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** "YYYY-MM-DDTHH:mm" in UTC (the servers run with TZ=UTC), on a minute boundary at least `ms` ahead. */
function localMinuteAhead(ms: number): string {
  const at = new Date(Math.ceil((Date.now() + ms) / 60_000) * 60_000);
  return at.toISOString().slice(0, 16);
}

interface Filled {
  title: string;
  slug: string;
  imageUrl: string;
  scheduledTitle: string;
  scheduledSlug: string;
  contactMessage: string;
}

async function signIn(server: ServerProcess): Promise<string> {
  const response = await server.fetch("/api/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ ...ADMIN, verificationToken: await easyAltchaToken(SECRET) }),
  });
  expect(response.status).toBe(200);
  return (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
}

/** Content made the way an owner and a visitor make it: through the old release's HTTP interface. */
async function fill(server: ServerProcess): Promise<Filled> {
  const cookie = await signIn(server);
  const headers = { origin: server.url, cookie };
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#3366aa" } })
    .png()
    .toBuffer();
  const upload = new FormData();
  upload.append("files", new Blob([new Uint8Array(png)], { type: "image/png" }), "kept.png");
  const uploaded = await server.fetch("/api/uploads", { method: "POST", headers, body: upload });
  expect(uploaded.status).toBe(201);
  const imageUrl = z.object({ images: z.array(z.object({ url: z.string() })).min(1) }).parse(await uploaded.json()).images[0]?.url ?? "";

  const title = `Kept across the upgrade ${Date.now()}`;
  const created = await server.fetch("/7fs/Faith/new", {
    method: "POST",
    headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
    body: form({ title, content: `Written before the upgrade.\n\n![A blue square](${imageUrl})`, published: "on", media: "[]" }),
  });
  expect(created.status).toBe(302);
  const slugOf = (response: Response) => /^\/7fs\/Faith\/([^/?]+)/.exec(response.headers.get("location") ?? "")?.[1] ?? "";
  const slug = slugOf(created);

  const scheduledTitle = `Scheduled across the upgrade ${Date.now()}`;
  const scheduled = await server.fetch("/7fs/Faith/new", {
    method: "POST",
    headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
    // Due a little after the new build has started: the old release's job must run on the new one.
    body: form({
      title: scheduledTitle,
      content: "Published by the upgraded site.",
      schedule: "on",
      publishAt: localMinuteAhead(120_000),
      media: "[]",
    }),
  });
  expect(scheduled.status).toBe(302);
  const scheduledSlug = slugOf(scheduled);
  expect(scheduledSlug).not.toBe("");

  const contactMessage = `Sent before the upgrade ${Date.now()}`;
  const sent = await server.fetch("/api/send-contact-email", {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({
      name: "Upgrade Visitor",
      email: "visitor@example.com",
      message: contactMessage,
      turnstileToken: await easyAltchaToken(SECRET),
    }),
  });
  expect(sent.status).toBe(201);
  return { title, slug, imageUrl, scheduledTitle, scheduledSlug, contactMessage };
}

describe.skipIf(!process.env.UPGRADE_TEST)("upgrade from the previous release (UPGRADE_TEST=1, npm run test:upgrade)", () => {
  let baseDir = "";
  beforeAll(() => {
    baseDir = buildBase();
  }, 900_000);

  for (const kind of ["pglite", "postgres"] as const) {
    describe(kind, () => {
      let postgres: ThrowawayPostgres | undefined;
      let server: ServerProcess | undefined;
      let env: Record<string, string> = {};
      let filled: Filled;

      beforeAll(async () => {
        const dataDir = tempDir(`upgrade-${kind}-`);
        if (kind === "postgres") postgres = await createPostgresDatabase("upgrade");
        env = {
          TZ: "UTC",
          DATA_DIR: dataDir,
          ...(postgres ? { DATABASE_URL: postgres.url } : {}),
          ...ownerServerEnv(SECRET, ADMIN),
          JOBS_POLL_MS: "200",
          CONTENT_VERSION_POLL_MS: "200",
        };
        const old = await startServerProcess(env, { cwd: baseDir });
        try {
          filled = await fill(old);
        } finally {
          expect(await old.stop()).toBe(0);
        }
        server = await startServerProcess(env);
      }, 300_000);

      afterAll(async () => {
        await server?.stop();
        await postgres?.drop();
      });

      it("the new build migrates the old data and is ready, saying its version", async () => {
        const ready = await server!.fetch("/readyz");
        expect(ready.status).toBe(200);
        expect(await ready.json()).toMatchObject({ status: "ready", version: packageJson.version, migrations: "ok", database: "ok" });
      });

      it("the owner signs in with the old password and finds the visitor's message", async () => {
        const cookie = await signIn(server!);
        const inbox = await server!.fetch("/admin/messages", { headers: { cookie } });
        expect(inbox.status).toBe(200);
        expect(await inbox.text()).toContain(filled.contactMessage);
      });

      it("the post and its image are served", async () => {
        const page = await server!.fetch(`/7fs/Faith/${filled.slug}`);
        expect(page.status).toBe(200);
        const html = await page.text();
        expect(html).toContain(filled.title);
        const image = await server!.fetch(new URL(filled.imageUrl, server!.url).pathname);
        expect(image.status).toBe(200);
        expect((await sharp(Buffer.from(await image.arrayBuffer())).metadata()).width).toBe(64);
      });

      it("the post scheduled on the old release is published by the new one", async () => {
        await waitFor(
          async () => (await server!.fetch(`/7fs/Faith/${filled.scheduledSlug}`)).status === 200,
          240_000,
          "the scheduled post",
        );
        expect(await (await server!.fetch(`/7fs/Faith/${filled.scheduledSlug}`)).text()).toContain(filled.scheduledTitle);
      }, 300_000);
    });
  }
});
