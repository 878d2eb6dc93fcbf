import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { DISK_FULL } from "~/server/errors.server";
import { openDatabase } from "~/server/db/client.server";
import { contactMessages } from "~/server/db/schema.server";
import { easyAltchaToken } from "../helpers/altcha";
import { waitFor } from "../helpers/contact";
import { ownerServerEnv, postContactMessage, type ServerProcess, signInTo, startServerProcess, uploadPng } from "../helpers/server-process";
import { tempDir } from "../helpers/temp-dir";

/**
 * The disk fills up (docs/decisions/0073-configured-hosts.md, "Disk full"): a production server on the
 * embedded database whose every write under a "full" directory fails with the kernel's ENOSPC
 * (tests/helpers/disk-full-preload.mjs, loaded with NODE_OPTIONS; the error comes from /dev/full, so
 * no root, loop mount or tmpfs is needed). First the uploads directory is full: uploads answer 507
 * with what to do, nothing half-stored, pages, images and other writes go on, and the first upload
 * after space returns succeeds. Then the embedded database's own files are full: the write that meets
 * it answers 507, PostgreSQL PANICs (it cannot write its log), and the server answers 503 at once,
 * logs one line and exits with status 1 for a supervisor to restart it; started again once space
 * returns, it has every write it acknowledged.
 */
const FULL_MS = Number(process.env.FAULT_DISK_FULL_SECONDS ?? 15) * 1000;
const SECRET = "fault-disk-secret-0123456789abcdef0123";
const ADMIN = { email: "admin@fault-disk.example", password: "fault disk pass phrase 42" };
/** A request still unanswered after this counts as hung (status 0). */
const REQUEST_TIMEOUT_MS = 10_000;
const PRELOAD = path.resolve("tests/helpers/disk-full-preload.mjs");
// A server process and seconds of a full disk: run by `npm run test:faults` (FAULT_TESTS=1), not by `npm test`.
const skipReason = process.env.FAULT_TESTS ? null : "run with npm run test:faults";

const uploadResult = z.object({ images: z.array(z.object({ url: z.string() })) });

(skipReason === null ? describe : describe.skip)(`Disk full${skipReason ? ` (skipped: ${skipReason})` : ""}`, () => {
  // Made in beforeAll, not here: a skipped suite's body still runs, and its hooks do not.
  let dataDir = "";
  let flag = "";
  let uploadsDir = "";
  let env: Record<string, string> = {};
  let server: ServerProcess;
  let cookie = "";
  let png: Buffer;

  beforeAll(async () => {
    dataDir = tempDir("fault-disk-data-");
    flag = path.join(tempDir("fault-disk-flag-"), "full");
    uploadsDir = path.join(dataDir, "uploads");
    env = {
      DATA_DIR: dataDir,
      ...ownerServerEnv(SECRET, ADMIN),
      CONTACT_RATE_LIMIT_PER_10_MIN: "1000",
      NODE_OPTIONS: `--import=${PRELOAD}`,
      FAULT_DISK_FULL_FLAG: flag,
    };
    server = await startServerProcess(env);
    cookie = await signInTo(server, ADMIN, SECRET);
    png = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#aa6633" } })
      .png()
      .toBuffer();
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
  });

  const upload = () => uploadPng(server, cookie, png);
  const contact = async (n: number) =>
    postContactMessage(server, n, await easyAltchaToken(SECRET), AbortSignal.timeout(REQUEST_TIMEOUT_MS));
  const acknowledged: string[] = [];
  const noteContact = async (response: Response) => {
    const body = await response.text();
    if (response.status === 201) acknowledged.push(z.object({ id: z.string() }).parse(JSON.parse(body)).id);
    return { status: response.status, body };
  };
  const filesUnder = (dir: string): string[] =>
    fs.existsSync(dir)
      ? fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => fs.statSync(path.join(dir, f)).isFile())
      : [];
  let sent = 0;

  it("uploads directory full: uploads answer 507 and say what to do, nothing is half-stored, the rest goes on, and it recovers", async () => {
    const before = await upload();
    expect(before.status).toBe(201);
    const imageUrl = uploadResult.parse(await before.json()).images[0]?.url ?? "";
    const filesBefore = filesUnder(uploadsDir).sort();
    const library = async () => (await server.fetch("/admin/media", { headers: { cookie } })).text();
    const itemsBefore = (await library()).match(/photo\.png/g)?.length ?? 0;

    fs.writeFileSync(flag, `${uploadsDir}\n`);
    const startedAt = Date.now();
    const refused: Array<{ status: number; error: string }> = [];
    const others: Array<{ what: string; status: number }> = [];
    while (Date.now() - startedAt < FULL_MS) {
      const response = await upload();
      const body = z.object({ error: z.string() }).safeParse(await response.json().catch(() => ({})));
      refused.push({ status: response.status, error: body.success ? body.data.error : "" });
      others.push({ what: "image", status: (await server.fetch(imageUrl)).status });
      others.push({ what: "home", status: (await server.fetch("/")).status });
      others.push({ what: "contact", status: (await noteContact(await contact(sent++))).status });
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const filesDuring = filesUnder(uploadsDir).sort();
    const itemsDuring = (await library()).match(/photo\.png/g)?.length ?? 0;

    fs.writeFileSync(flag, "");
    const freedAt = Date.now();
    let after: Response | undefined;
    await waitFor(
      async () => {
        after = await upload();
        return after.status === 201;
      },
      30_000,
      "an upload to succeed once space returns",
    );
    const recoveryMs = Date.now() - freedAt;
    console.info(
      "[fault] uploads directory full",
      JSON.stringify({
        fullMs: freedAt - startedAt,
        uploadsTried: refused.length,
        statuses: [...new Set(refused.map((r) => r.status))],
        otherRequests: others.length,
        otherFailures: others.filter((o) => o.status >= 400),
        recoveryMs,
      }),
    );
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) expect(answer).toEqual({ status: 507, error: DISK_FULL });
    expect(others.filter((o) => !(o.status === 200 || (o.what === "contact" && o.status === 201)))).toEqual([]);
    // Nothing half-stored: no new file (an original written before its variants failed is removed), no new row.
    expect(filesDuring).toEqual(filesBefore);
    expect(itemsDuring).toBe(itemsBefore);
    expect(uploadResult.parse(await after?.json()).images).toHaveLength(1);
    expect((await server.fetch(imageUrl)).status).toBe(200);
  }, 120_000);

  it("embedded database full: the write answers 507, then everything 503 at once, one log line, exit 1; a restart once space returns has every acknowledged write", async () => {
    const before = acknowledged.length;
    expect(before).toBeGreaterThan(0);
    fs.writeFileSync(flag, `${path.join(dataDir, "pglite")}\n`);
    const startedAt = Date.now();
    const answers: Array<{ what: string; status: number; ms: number; error: string }> = [];
    const timed = async (what: string, request: () => Promise<{ status: number; body: string }>) => {
      const at = Date.now();
      const answer = await request().catch((error: unknown) => ({ status: 0, body: String(error) }));
      const body = z.object({ error: z.string() }).safeParse(
        await Promise.resolve(answer.body)
          .then(JSON.parse)
          .catch(() => ({})),
      );
      answers.push({ what, status: answer.status, ms: Date.now() - at, error: body.success ? body.data.error : "" });
    };
    // Until the process has ended (or 30 s): contact messages (writes) and the signed-in media library (reads).
    while (server.child.exitCode === null && Date.now() - startedAt < 30_000) {
      await timed("write", async () => noteContact(await contact(sent++)));
      await timed("read", async () => {
        const response = await server.fetch("/admin/media", { headers: { cookie }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        return { status: response.status, body: "{}" };
      });
    }
    const exitCode = await Promise.race([server.exited, new Promise((resolve) => setTimeout(() => resolve("running"), 15_000))]);
    const exitedAfterMs = Date.now() - startedAt;
    const log = server.stderr();
    const stoppedLines = log.split("\n").filter((line) => line.includes("The embedded database stopped"));

    // Space returns; a supervisor starts the server again on the same data directory.
    fs.writeFileSync(flag, "");
    const restartAt = Date.now();
    server = await startServerProcess(env);
    const restartMs = Date.now() - restartAt;
    const afterRestart = await noteContact(await contact(sent++));
    await server.stop();
    const database = await openDatabase({ kind: "pglite", dataDir });
    const stored = await database.db.select({ id: contactMessages.id }).from(contactMessages);
    await database.close();
    console.info(
      "[fault] embedded database full",
      JSON.stringify({
        answers: answers.map((a) => `${a.what} ${a.status} ${a.ms}ms`),
        exitCode,
        exitedAfterMs,
        stoppedLines: stoppedLines.length,
        restartMs,
        acknowledged: acknowledged.length,
        stored: stored.length,
      }),
    );
    expect(exitCode).toBe(1);
    expect(stoppedLines).toHaveLength(1);
    // The write that met the full disk is told so; after that the database is away (503) until the
    // process ends (then connections are refused: status 0 within milliseconds, never a hang).
    const writes = answers.filter((a) => a.what === "write");
    expect(writes[0]).toMatchObject({ status: 507, error: DISK_FULL });
    expect(answers.filter((a) => ![507, 503, 0].includes(a.status))).toEqual([]);
    expect(answers.filter((a) => a.ms > 5_000)).toEqual([]);
    expect(exitedAfterMs).toBeLessThan(20_000);
    // Nothing acknowledged is lost, and the restarted server takes writes again.
    expect(afterRestart.status).toBe(201);
    expect(stored.map((r) => r.id)).toEqual(expect.arrayContaining(acknowledged));
    expect(acknowledged.length).toBe(before + 1);
  }, 120_000);
});
