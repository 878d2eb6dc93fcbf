/**
 * npm run bench:backup [-- --posts 10000 --images 1000 --image-kb 64]
 *
 * Seeds a scratch embedded database (PGlite) with posts and images, then times the real CLI:
 * `backup` of it, and `restore` into a second, empty data directory (or into PostgreSQL when
 * BENCH_DATABASE_URL is set — that database is replaced). Peak RSS of each CLI process is read
 * from /proc while it runs, to show memory does not grow with the amount of data (streamed).
 */
import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { migrateDatabase, openDatabase } from "~/server/db/client.server";
import { blogMedia, blogPosts, uploads, user } from "~/server/db/schema.server";
import { createLocalStorage } from "~/server/storage.server";
import { scriptTempDir } from "./temp-dir.mjs";

const { values } = parseArgs({
  options: {
    posts: { type: "string", default: "10000" },
    images: { type: "string", default: "1000" },
    "image-kb": { type: "string", default: "64" },
  },
});
const POSTS = Number(values.posts);
const IMAGES = Number(values.images);
const IMAGE_BYTES = Number(values["image-kb"]) * 1024;
const CATEGORIES = ["Faith", "Finance", "Fitness", "Fun", "Friends", "Family", "Figurehead"] as const;

const root = scriptTempDir("bench-backup-");
const sourceDir = path.join(root, "source");
const targetDir = path.join(root, "target");
const archive = path.join(root, "site.tar.gz");

function paragraph(i: number): string {
  return (
    `## Part ${i}\n\nLorem ipsum dolor sit amet, consectetur adipiscing elit ${randomBytes(8).toString("hex")}. ` +
    "Sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation.\n\n"
  );
}

async function seed() {
  const database = await openDatabase({ kind: "pglite", dataDir: sourceDir });
  try {
    await migrateDatabase(database);
    const { db } = database;
    const authorId = randomUUID();
    await db.insert(user).values({ id: authorId, name: "Bench Author", email: "bench@example.com", emailVerified: true });
    const storage = createLocalStorage(path.join(sourceDir, "uploads"));
    const uploadIds: string[] = [];
    for (let i = 0; i < IMAGES; i += 100) {
      const rows = [];
      for (let j = i; j < Math.min(i + 100, IMAGES); j++) {
        const key = `blog-images/${authorId}/${1_700_000_000_000 + j}-${randomBytes(6).toString("hex")}.jpg`;
        await storage.put(key, randomBytes(IMAGE_BYTES), "image/jpeg");
        rows.push({
          userId: authorId,
          storageKey: key,
          contentType: "image/jpeg",
          byteSize: IMAGE_BYTES,
          width: 1600,
          height: 1200,
          originalName: `photo-${j}.jpg`,
        });
      }
      const inserted = await db.insert(uploads).values(rows).returning({ id: uploads.id });
      uploadIds.push(...inserted.map((r) => r.id));
    }
    const keys = await db.select({ id: uploads.id, key: uploads.storageKey }).from(uploads);
    for (let i = 0; i < POSTS; i += 500) {
      const rows = [];
      for (let j = i; j < Math.min(i + 500, POSTS); j++) {
        rows.push({
          title: `Post number ${j}`,
          slug: `post-number-${j}`,
          content: Array.from({ length: 4 }, (_, k) => paragraph(k)).join(""),
          excerpt: `Excerpt of post ${j}`,
          category: CATEGORIES[j % CATEGORIES.length] ?? "Fun",
          published: j % 5 !== 0,
          featured: j % 50 === 0,
          authorId,
        });
      }
      const posts = await db.insert(blogPosts).values(rows).returning({ id: blogPosts.id });
      const media = posts.flatMap((post, k) => {
        const image = keys[(i + k) % Math.max(keys.length, 1)];
        return image && i + k < IMAGES
          ? [{ postId: post.id, mediaType: "image" as const, mediaUrl: `/uploads/${image.key}`, uploadId: image.id, displayOrder: 0 }]
          : [];
      });
      if (media.length > 0) await db.insert(blogMedia).values(media);
    }
  } finally {
    await database.close();
  }
}

interface Run {
  seconds: number;
  peakRssMb: number;
  stdout: string;
}

/** Runs the CLI as its own process, sampling its peak resident memory (VmHWM) from /proc. */
function runCli(dataDir: string, args: string[], extraEnv: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ["--import", "tsx", "cli/index.ts", ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", S3_BUCKET: "", UPLOAD_DIR: "", LOG_LEVEL: "warn", ...extraEnv },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let peakKb = 0;
    const sample = setInterval(() => {
      try {
        const status = fs.readFileSync(`/proc/${child.pid}/status`, "utf8");
        const match = /VmHWM:\s+(\d+) kB/.exec(status);
        if (match) peakKb = Math.max(peakKb, Number(match[1]));
      } catch {
        // The process has just exited.
      }
    }, 25);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("exit", (code) => {
      clearInterval(sample);
      if (code !== 0) reject(new Error(`cli ${args.join(" ")} failed (${code}): ${stderr}`));
      else resolve({ seconds: (performance.now() - started) / 1000, peakRssMb: peakKb / 1024, stdout: stdout.trim() });
    });
  });
}

async function main() {
  console.log(`Seeding ${POSTS} posts and ${IMAGES} images of ${IMAGE_BYTES / 1024} KB into ${sourceDir} ...`);
  const seedStart = performance.now();
  await seed();
  console.log(`  seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

  // Baselines: the CLI with the embedded database opened and nothing else done, on the seeded
  // directory and on a new one (PGlite's own memory grows with the data it touches).
  const baseline = await runCli(sourceDir, ["list-users"]);
  const freshDir = path.join(root, "fresh");
  const freshBaseline = await runCli(freshDir, ["list-users"]);
  const backup = await runCli(sourceDir, ["backup", archive]);
  const pgUrl = process.env.BENCH_DATABASE_URL;
  const restore = pgUrl
    ? await runCli(targetDir, ["restore", archive, "--force"], { DATABASE_URL: pgUrl, UPLOAD_DIR: path.join(targetDir, "uploads") })
    : await runCli(targetDir, ["restore", archive]);
  const archiveMb = fs.statSync(archive).size / 1024 / 1024;

  console.log(backup.stdout);
  console.log(restore.stdout);
  console.log("");
  console.log(`| step | time (s) | peak RSS (MB) |`);
  console.log(`|---|---:|---:|`);
  console.log(`| list-users on the seeded database (baseline) | ${baseline.seconds.toFixed(1)} | ${baseline.peakRssMb.toFixed(0)} |`);
  console.log(`| list-users on a new database (baseline) | ${freshBaseline.seconds.toFixed(1)} | ${freshBaseline.peakRssMb.toFixed(0)} |`);
  console.log(`| backup | ${backup.seconds.toFixed(1)} | ${backup.peakRssMb.toFixed(0)} |`);
  console.log(`| restore (${pgUrl ? "PostgreSQL" : "PGlite"}) | ${restore.seconds.toFixed(1)} | ${restore.peakRssMb.toFixed(0)} |`);
  console.log(`archive: ${archiveMb.toFixed(1)} MB; goal: backup and restore under 60 s each`);
  const ok = backup.seconds < 60 && restore.seconds < 60;
  if (!ok) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
