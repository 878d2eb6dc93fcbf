import { createHash, randomBytes } from "node:crypto";
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { sql } from "drizzle-orm";
import tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { createTestDatabase, describeEachDatabase } from "../../../tests/helpers/databases";
import { tempDir } from "../../../tests/helpers/temp-dir";
import { MIGRATIONS_DIR, type Database, type Db } from "../db/client.server";
import {
  account,
  appSettings,
  blogMedia,
  blogPosts,
  contactMessages,
  mailOutbox,
  projects,
  rateLimits,
  session,
  uploads,
  user,
  userRoles,
  verification,
} from "../db/schema.server";
import { FILE_LIMITS } from "../limits.server";
import { createLocalStorage, type Storage } from "../storage.server";
import { readArchive, type Manifest } from "./archive.server";
import { createBackup } from "./backup.server";
import { queryRows } from "../db/query-rows.server";
import { applyMigrations, listTables, loadMigrations } from "./database-info.server";
import { restoreBackup } from "./restore.server";

const newStorage = () => createLocalStorage(tempDir("backup-storage-"));
const archivePath = () => path.join(tempDir("backup-archive-"), "site.tar.gz");

/** Content in every app table, with the awkward values a backup must carry over exactly. */
async function seedContent(db: Db, storage: Storage, tag: string) {
  const authorId = `author-${tag}`;
  await db.insert(user).values([
    {
      id: authorId,
      name: "Zoë “Quotes” O'Brien 🚀",
      email: `author-${tag}@example.com`,
      emailVerified: true,
      createdAt: new Date("2024-02-29T12:34:56.789Z"),
    },
    { id: `reader-${tag}`, name: "Reader\\with\\backslashes\nand a newline", email: `reader-${tag}@example.com` },
  ]);
  await db.insert(account).values({
    id: `acct-${tag}`,
    accountId: authorId,
    providerId: "credential",
    userId: authorId,
    password: "$argon2id$v=19$m=19456,t=2,p=1$abc$def",
  });
  await db.insert(session).values({
    id: `sess-${tag}`,
    token: `token-${tag}`,
    userId: authorId,
    expiresAt: new Date("2031-01-01T00:00:00Z"),
    userAgent: "Mozilla/5.0 (X11)",
  });
  await db.insert(userRoles).values({ userId: authorId, role: "admin" });
  await db
    .insert(verification)
    .values({ id: `ver-${tag}`, identifier: "password-reset", value: "hash", expiresAt: new Date("2030-05-05T05:05:05Z") });
  const [upload] = await db
    .insert(uploads)
    .values({
      userId: authorId,
      storageKey: `blog-images/${authorId}/1700000000000-aaaaaa.jpg`,
      contentType: "image/jpeg",
      byteSize: 4096,
      width: 1200,
      height: 800,
      variants: [{ width: 400, key: `blog-images/${authorId}/1700000000000-aaaaaa-400.webp`, byteSize: 1000 }],
      originalName: "holiday photo (1).JPG",
    })
    .returning({ id: uploads.id });
  const posts = await db
    .insert(blogPosts)
    .values([
      {
        title: "First",
        slug: `first-${tag}`,
        content: '# Hello\n\nTabs\tand "quotes" and ünïcödé ✓',
        category: "Faith",
        published: true,
        featured: true,
        authorId,
      },
      { title: "Draft", slug: `draft-${tag}`, content: "x".repeat(20_000), excerpt: null, category: "Fun", authorId },
    ])
    .returning({ id: blogPosts.id });
  await db.insert(blogMedia).values([
    {
      postId: posts[0]!.id,
      mediaType: "image",
      mediaUrl: `/uploads/blog-images/${authorId}/1700000000000-aaaaaa.jpg`,
      uploadId: upload!.id,
      caption: "A caption",
      displayOrder: 0,
    },
    { postId: posts[0]!.id, mediaType: "youtube", mediaUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ", displayOrder: 1 },
  ]);
  await db
    .insert(projects)
    .values({ title: "Site", description: "Multi\nline", type: "web", url: "https://example.com", featured: true, displayOrder: 3 });
  const [mail] = await db
    .insert(mailOutbox)
    .values({
      kind: "contact.forward",
      recipient: "owner@example.com",
      payload: { messageId: "x" },
      state: "failed",
      attempts: 8,
      lastError: "550 no",
    })
    .returning({ id: mailOutbox.id });
  await db.insert(contactMessages).values({
    name: "Ann",
    email: "ann@example.com",
    message: "Hi there",
    mailId: mail!.id,
    ipAddress: "203.0.113.9",
  });
  await db.execute(sql`update contact_messages set created_at = '2024-06-01 10:11:12.123456+00'`);
  await db.insert(rateLimits).values({ key: `login:${tag}`, count: 3, resetAt: new Date("2030-01-01T00:00:00Z") });
  await db.insert(appSettings).values({ key: `setting-${tag}`, value: '{"nested":true}' });
  await storage.put(`blog-images/${authorId}/1700000000000-aaaaaa.jpg`, randomBytes(4096), "image/jpeg");
  await storage.put(`blog-images/${authorId}/1700000000000-aaaaaa-400.webp`, randomBytes(1000), "image/webp");
  await storage.put(`blog-images/${authorId}/1700000000001-bbbbbb.png`, Buffer.alloc(0), "image/png");
}

/** A table no migration creates, with the column types the app does not use yet. */
async function addTypeProbe(db: Db, withRows: boolean) {
  await db.execute(sql`create table backup_type_probe (
    id bigint generated always as identity primary key,
    n numeric, f float8, b bytea, words text[], grid int[][], ts timestamptz, plain timestamp, d date, iv interval,
    j json, jb jsonb, u uuid, doubled bigint generated always as (id * 2) stored)`);
  if (!withRows) return;
  await db.execute(sql`insert into backup_type_probe (n, f, b, words, grid, ts, plain, d, iv, j, jb, u) values
    (12345678901234567890.123456789012345678901, 0.1, decode(${randomBytes(256).toString("hex")}, 'hex'), array['a,b', 'quote"d', null, 'ü'],
     '{{1,2},{3,4}}', '2024-02-29 23:59:59.999999+05:30', '1999-12-31 23:59:59.000001', '0001-01-01', '1 year 2 mons 3 days 04:05:06.789',
     '{"keep":  "spacing", "n": 1.50}', '{"deep": {"list": [1, 2.5, null, "x"]}, "big": 123456789012345678901234567890}', gen_random_uuid()),
    ('NaN', 'Infinity', '\\x', '{}', null, 'infinity', '-infinity', null, null, 'null', '[]', null)`);
  await db.execute(sql`delete from backup_type_probe where id = 1`);
  await db.execute(sql`insert into backup_type_probe (n) values (-0.000000000000000000001)`);
}

/** Every row of every table (as PostgreSQL prints it) and every stored file's bytes. */
async function snapshot(db: Db, storage: Storage) {
  const tables: Record<string, string[]> = {};
  for (const table of await listTables(db)) {
    const rows = await queryRows(
      db,
      sql`select row_to_json(t)::text as "row" from ${sql.identifier(table.name)} t order by 1`,
      z.object({ row: z.string() }),
    );
    tables[table.name] = rows.map((r) => r.row);
  }
  const files: Record<string, string> = {};
  for await (const object of storage.list()) {
    const stored = await storage.get(object.key);
    files[object.key] = `${stored?.contentType} ${createHash("sha256")
      .update(stored?.body ?? Buffer.alloc(0))
      .digest("hex")} ${stored?.body.length}`;
  }
  return { tables, files };
}

/** Re-packs an archive as a valid .tar.gz with entries changed or dropped, as tampering or a bad copy would. */
async function rewriteArchive(from: string, change: (path: string, bytes: Buffer) => Buffer | null): Promise<string> {
  const to = archivePath();
  const pack = tar.pack();
  const writing = pipeline(pack, createGzip(), fs.createWriteStream(to));
  await readArchive(from, async ({ path: name, stream }) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    const bytes = change(name, Buffer.concat(chunks));
    if (bytes) pack.entry({ name }, bytes);
  });
  pack.finalize();
  await writing;
  return to;
}

/**
 * rewriteArchive for a crafted archive: the manifest is rewritten too (by `edit`, and with the new size,
 * checksum and row count of every changed entry), so only the limits can refuse it.
 */
async function craftArchive(
  from: string,
  change: (path: string, bytes: Buffer) => Buffer,
  edit: (manifest: Manifest) => void = () => undefined,
): Promise<string> {
  const changed = new Map<string, { bytes: number; sha256: string; rows: number }>();
  return rewriteArchive(from, (name, bytes) => {
    if (name !== "manifest.json") {
      const out = change(name, bytes);
      if (out !== bytes) {
        const rows = out.toString("utf8").split("\n").length - 1;
        changed.set(name, { bytes: out.length, sha256: createHash("sha256").update(out).digest("hex"), rows });
      }
      return out;
    }
    const manifest = JSON.parse(bytes.toString("utf8")) as Manifest;
    for (const table of manifest.tables)
      for (const chunk of table.chunks) {
        const now = changed.get(chunk.path);
        if (!now) continue;
        table.rows += now.rows - chunk.rows;
        Object.assign(chunk, now);
      }
    edit(manifest);
    return Buffer.from(JSON.stringify(manifest));
  });
}

async function wipeSchema(db: Db) {
  await db.execute(sql`drop schema public cascade`);
  await db.execute(sql`create schema public`);
  await db.execute(sql`drop schema if exists drizzle cascade`);
}

describeEachDatabase("backup and restore", (ctx) => {
  const sourceStorage = newStorage();
  let archive: string;
  let source: Awaited<ReturnType<typeof snapshot>>;

  beforeAll(async () => {
    await seedContent(ctx.db, sourceStorage, "src");
    await addTypeProbe(ctx.db, true);
    archive = archivePath();
    const summary = await createBackup({ database: ctx.database, storage: sourceStorage, file: archive });
    expect(summary.files).toBe(3);
    source = await snapshot(ctx.db, sourceStorage);
  });

  it("round-trips every row of every table and every file byte for byte", async () => {
    const target = await createTestDatabase(ctx.kind);
    try {
      await addTypeProbe(target.db, false);
      const storage = newStorage();
      const summary = await restoreBackup({ database: target, storage, file: archive });
      expect(summary.migratedFrom).toBeUndefined();
      const restored = await snapshot(target.db, storage);
      for (const table of [
        "user",
        "account",
        "session",
        "user_roles",
        "verification",
        "blog_posts",
        "blog_media",
        "uploads",
        "projects",
        "contact_messages",
        "backup_type_probe",
      ]) {
        expect(source.tables[table]?.length, table).toBeGreaterThan(0);
      }
      expect(Object.keys(source.files)).toHaveLength(3);
      expect(restored).toEqual(source);
      // Identity and serial sequences continue after the restored rows.
      const [next] = await queryRows(
        target.db,
        sql`insert into backup_type_probe (n) values (1) returning id::int as "id"`,
        z.object({ id: z.number() }),
      );
      expect(next?.id).toBe(4);
    } finally {
      await target.close();
    }
  });

  it("refuses a corrupted or truncated archive and changes nothing", async () => {
    const target = await createTestDatabase(ctx.kind);
    try {
      await addTypeProbe(target.db, false);
      const storage = newStorage();
      await seedContent(target.db, storage, "existing");
      const before = await snapshot(target.db, storage);
      const bytes = fs.readFileSync(archive);
      const flipped = Buffer.from(bytes);
      flipped[Math.floor(bytes.length / 2)]! ^= 0x40;
      const corrupted = archivePath();
      fs.writeFileSync(corrupted, flipped);
      const truncated = archivePath();
      fs.writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.7)));
      const noEnd = archivePath();
      fs.writeFileSync(noEnd, bytes.subarray(0, bytes.length - 8));
      const flip = (bytes: Buffer) => {
        const copy = Buffer.from(bytes);
        copy[copy.length >> 1]! ^= 0x01;
        return copy;
      };
      const tamperedFile = await rewriteArchive(archive, (name, bytes) => (name.endsWith(".jpg") ? flip(bytes) : bytes));
      const tamperedRows = await rewriteArchive(archive, (name, bytes) => (name.includes("-blog_posts/") ? flip(bytes) : bytes));
      const noManifest = await rewriteArchive(archive, (name, bytes) => (name === "manifest.json" ? null : bytes));
      const missingFile = await rewriteArchive(archive, (name, bytes) => (name.endsWith(".png") ? null : bytes));
      await expect(restoreBackup({ database: target, storage, file: tamperedFile, force: true })).rejects.toThrow(
        /files\/blog-images\/.*\.jpg does not match its SHA-256 checksum/,
      );
      await expect(restoreBackup({ database: target, storage, file: tamperedRows, force: true })).rejects.toThrow(
        /blog_posts.*does not match its SHA-256 checksum/,
      );
      await expect(restoreBackup({ database: target, storage, file: noManifest, force: true })).rejects.toThrow(/it has no manifest/);
      await expect(restoreBackup({ database: target, storage, file: missingFile, force: true })).rejects.toThrow(/\.png is missing/);
      for (const file of [corrupted, truncated, noEnd]) {
        await expect(restoreBackup({ database: target, storage, file, force: true })).rejects.toThrow(
          /is damaged or incomplete \(.+\)\. Nothing was changed\./,
        );
      }
      await expect(restoreBackup({ database: target, storage, file: path.join(tempDir("none-"), "missing.tar.gz") })).rejects.toThrow(
        /no such file/,
      );
      expect(await snapshot(target.db, storage)).toEqual(before);
    } finally {
      await target.close();
    }
  });

  it("refuses a row too large or too deeply nested, and stores an archived page type as a download", async () => {
    const target = await createTestDatabase(ctx.kind);
    try {
      await addTypeProbe(target.db, false);
      const storage = newStorage();
      const before = await snapshot(target.db, storage);
      const withRow = (row: string) => (name: string, bytes: Buffer) =>
        name.includes("-projects/") ? Buffer.concat([bytes, Buffer.from(`${row}\n`)]) : bytes;
      const hugeRow = await craftArchive(archive, withRow(`{"title": "${"x".repeat(FILE_LIMITS.backupRow)}"}`));
      await expect(restoreBackup({ database: target, storage, file: hugeRow })).rejects.toThrow(
        /has a row larger than 64 MB in db\/.*projects.*Nothing was changed\./,
      );
      const deepRow = await craftArchive(archive, withRow(`{"title": "t", "x": ${"[".repeat(5_000)}${"]".repeat(5_000)}}`));
      await expect(restoreBackup({ database: target, storage, file: deepRow })).rejects.toThrow(
        /has a row nested more than 64 levels deep in db\/.*projects.*Nothing was changed\./,
      );
      expect(await snapshot(target.db, storage)).toEqual(before);

      const page = await craftArchive(
        archive,
        (_name, bytes) => bytes,
        (manifest) => {
          for (const file of manifest.files) if (file.key.endsWith(".png")) file.contentType = "text/html";
        },
      );
      const summary = await restoreBackup({ database: target, storage, file: page });
      const key = summary.manifest.files.find((f) => f.key.endsWith(".png"))?.key ?? "";
      expect((await storage.stat(key))?.contentType).toBe("application/octet-stream");
      const jpg = summary.manifest.files.find((f) => f.key.endsWith(".jpg"))?.key ?? "";
      expect((await storage.stat(jpg))?.contentType).toBe("image/jpeg");
    } finally {
      await target.close();
    }
  }, 240_000);

  // Two more databases are created and migrated, and three restores run: minutes on a busy machine.
  it("refuses a target with content unless --force, which replaces it", async () => {
    const target = await createTestDatabase(ctx.kind);
    try {
      await addTypeProbe(target.db, false);
      const storage = newStorage();
      await seedContent(target.db, storage, "other");
      const before = await snapshot(target.db, storage);
      await expect(restoreBackup({ database: target, storage, file: archive })).rejects.toThrow(
        /The target is not empty: .*user \(2 rows\).*storage \(3 files\).*--force.*Nothing was changed\./,
      );
      expect(await snapshot(target.db, storage)).toEqual(before);

      // Only housekeeping rows (a generated secret, rate-limit counters) do not count as content.
      const fresh = await createTestDatabase(ctx.kind);
      try {
        await addTypeProbe(fresh.db, false);
        await fresh.db.insert(appSettings).values({ key: "auth_secret", value: "generated" });
        const freshStorage = newStorage();
        await restoreBackup({ database: fresh, storage: freshStorage, file: archive });
        expect(await snapshot(fresh.db, freshStorage)).toEqual(source);
      } finally {
        await fresh.close();
      }

      await restoreBackup({ database: target, storage, file: archive, force: true });
      expect(await snapshot(target.db, storage)).toEqual(source);
    } finally {
      await target.close();
    }
  }, 240_000);

  it("migrates an archive from an older schema and refuses one from a newer schema", async () => {
    // A migration newer than every real one is written for this test: it adds a column
    // and fills it from existing rows, the shape a real data migration takes.
    const older = MIGRATIONS_DIR;
    const newer = tempDir("migrations-");
    fs.cpSync(older, newer, { recursive: true });
    const journalPath = path.join(newer, "meta", "_journal.json");
    const journal = JSON.parse(fs.readFileSync(journalPath, "utf8"));
    const last = journal.entries.at(-1);
    journal.entries.push({ idx: last.idx + 1, version: last.version, when: last.when + 1000, tag: "9999_word_count", breakpoints: true });
    fs.writeFileSync(journalPath, JSON.stringify(journal));
    fs.writeFileSync(
      path.join(newer, "9999_word_count.sql"),
      `ALTER TABLE "blog_posts" ADD COLUMN "word_count" integer;--> statement-breakpoint\nUPDATE "blog_posts" SET "word_count" = array_length(regexp_split_to_array(trim("content"), '\\s+'), 1);`,
    );

    const oldSource = await createTestDatabase(ctx.kind);
    const target = await createTestDatabase(ctx.kind);
    const newerTarget = await createTestDatabase(ctx.kind);
    try {
      const oldStorage = newStorage();
      await seedContent(oldSource.db, oldStorage, "old");
      const oldArchive = archivePath();
      await createBackup({ database: oldSource, storage: oldStorage, file: oldArchive, migrationsFolder: older });
      const expected = await snapshot(oldSource.db, oldStorage);

      // The target already runs the newer app: its schema has the extra column.
      await applyMigrations(newerTarget.db, loadMigrations(newer).slice(-1));
      const storage = newStorage();
      const summary = await restoreBackup({ database: newerTarget, storage, file: oldArchive, migrationsFolder: newer });
      expect(summary.migratedFrom).toBe(last.tag);
      expect(summary.migration).toBe("9999_word_count");
      const counts = await queryRows(
        newerTarget.db,
        sql`select slug, word_count as "words" from blog_posts order by slug`,
        z.object({ slug: z.string(), words: z.number() }),
      );
      expect(counts).toEqual([
        { slug: "draft-old", words: 1 },
        { slug: "first-old", words: 8 },
      ]);
      const applied = await queryRows(
        newerTarget.db,
        sql`select count(*)::int as "n" from drizzle.__drizzle_migrations`,
        z.object({ n: z.number() }),
      );
      expect(applied[0]?.n).toBe(journal.entries.length);
      const restored = await snapshot(newerTarget.db, storage);
      expect(restored.files).toEqual(expected.files);
      expect(restored.tables.user).toEqual(expected.tables.user);
      expect(restored.tables.blog_media).toEqual(expected.tables.blog_media);

      // A backup of that newer database cannot be restored by the older app.
      const newArchive = archivePath();
      await createBackup({ database: newerTarget, storage, file: newArchive, migrationsFolder: newer });
      const targetStorage = newStorage();
      const before = await snapshot(target.db, targetStorage);
      await expect(restoreBackup({ database: target, storage: targetStorage, file: newArchive, migrationsFolder: older })).rejects.toThrow(
        new RegExp(
          `comes from a newer version of the site .*schema 9999_word_count.*only knows the schema up to ${last.tag}.*Nothing was changed\\.`,
        ),
      );
      expect(await snapshot(target.db, targetStorage)).toEqual(before);
    } finally {
      await Promise.all([oldSource.close(), target.close(), newerTarget.close()]);
    }
  }, 240_000);
});

describe("moving from the embedded database to PostgreSQL", () => {
  const skipReason = inject("postgresSkipReason");
  let pglite: Database;
  let postgres: Database;
  beforeAll(async () => {
    if (skipReason) return;
    pglite = await createTestDatabase("pglite");
    postgres = await createTestDatabase("postgres");
  });
  afterAll(async () => {
    await pglite?.close();
    await postgres?.close();
  });

  it.skipIf(skipReason !== null)("restores a PGlite backup into a brand-new PostgreSQL database", async () => {
    const localFiles = newStorage();
    await seedContent(pglite.db, localFiles, "moved");
    const archive = archivePath();
    await createBackup({ database: pglite, storage: localFiles, file: archive });
    // A brand-new database has no tables at all; the restore creates the schema itself.
    await wipeSchema(postgres.db);
    const storage = newStorage();
    await restoreBackup({ database: postgres, storage, file: archive });
    expect(await snapshot(postgres.db, storage)).toEqual(await snapshot(pglite.db, localFiles));
  });
});

describe("the backup and restore commands", () => {
  const run = promisify(execFile);
  const cli = (dataDir: string, ...args: string[]) =>
    run(process.execPath, ["--import", "tsx", "cli/index.ts", ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", S3_BUCKET: "", UPLOAD_DIR: "", LOG_LEVEL: "warn" },
    });

  it("moves a site between data directories, quietly when not on a terminal", async () => {
    const from = tempDir("cli-from-");
    const to = tempDir("cli-to-");
    const archive = archivePath();
    await cli(from, "create-user", "owner@example.com", "--role", "admin", "--password", "a long enough password");
    fs.mkdirSync(path.join(from, "uploads", "blog-images", "u1"), { recursive: true });
    fs.writeFileSync(path.join(from, "uploads", "blog-images", "u1", "1-abcdef.png"), "png bytes");
    fs.writeFileSync(path.join(from, "uploads", "blog-images", "u1", "1-abcdef.png.type"), "image/png");
    const backup = await cli(from, "backup", archive);
    expect(backup.stdout).toMatch(/^Backup written to .*site\.tar\.gz .*1 files/m);
    expect(backup.stderr).toBe("");
    const restore = await cli(to, "restore", archive);
    expect(restore.stdout).toMatch(/^Restored .* on pglite\): \d+ rows in \d+ tables, 1 files\./m);
    expect((await cli(to, "list-users")).stdout).toMatch(/owner@example.com\tAdministrator/);
    expect(fs.readFileSync(path.join(to, "uploads", "blog-images", "u1", "1-abcdef.png"), "utf8")).toBe("png bytes");
    await expect(cli(to, "restore", archive)).rejects.toMatchObject({ stderr: expect.stringMatching(/The target is not empty/) });
  }, 240_000);

  it("refuses to open the embedded database while the site is running", async () => {
    const dataDir = tempDir("cli-locked-");
    // The lock file names a live process other than the CLI's: this test runner.
    fs.writeFileSync(path.join(dataDir, "app.lock"), String(process.pid));
    await expect(cli(dataDir, "backup", archivePath())).rejects.toMatchObject({
      stderr: expect.stringMatching(/Error: The data directory .* is in use by process \d+ \(is the site running\?\)/),
    });
  });
});
