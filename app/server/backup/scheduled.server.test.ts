import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/server/db/client.server";
import { parseEnv } from "~/server/env.server";
import { createLocalStorage, createS3Storage, type Storage } from "~/server/storage.server";
import { createTestDatabase } from "../../../tests/helpers/databases";
import { makePost } from "../../../tests/helpers/factories";
import { tempDir } from "../../../tests/helpers/temp-dir";
import { verifyArchive } from "./archive.server";
import { registeredRecurringTasks } from "~/server/jobs/recurring.server";
import {
  backupDestination,
  backupName,
  parseBackupTarget,
  runScheduledBackup,
  scheduleBackups,
  type Destination,
} from "./scheduled.server";

const at = (minute: number) => new Date(Date.UTC(2026, 0, 31, 2, minute, 0, 5));

describe("scheduled backup targets", () => {
  it("reads a directory or an s3:// prefix", () => {
    expect(parseBackupTarget("./backups")).toEqual({ kind: "dir", dir: path.resolve("./backups") });
    expect(parseBackupTarget("s3://site-backups/nightly/")).toEqual({ kind: "s3", bucket: "site-backups", prefix: "nightly" });
    expect(parseBackupTarget("s3://site-backups")).toEqual({ kind: "s3", bucket: "site-backups", prefix: "backups" });
    expect(backupName(at(3))).toBe("backup-20260131T020300005Z.tgz");
  });

  it("registers one recurring task at the configured interval only when BACKUP_DIR is set", () => {
    const scheduled = () => registeredRecurringTasks().find((t) => t.name === "backup.scheduled");
    scheduleBackups(parseEnv({}));
    expect(scheduled()).toBeUndefined();
    scheduleBackups(parseEnv({ BACKUP_DIR: tempDir("scheduled-env-"), BACKUP_INTERVAL_HOURS: "2" }));
    expect(scheduled()).toMatchObject({ intervalMs: 7_200_000, firstRunDelayMs: 7_200_000 });
  });
});

describe("scheduled backups", () => {
  let database: Database;
  let s3: S3rver;
  let endpoint = "";
  const storage = createLocalStorage(tempDir("scheduled-files-"));
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    await makePost(database.db, { title: "Kept in every backup" });
    s3 = new S3rver({
      port: 0,
      address: "127.0.0.1",
      silent: true,
      directory: tempDir("scheduled-s3-"),
      configureBuckets: [{ name: "site-backups", configs: [] }],
    });
    const address: AddressInfo = await s3.run();
    endpoint = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    await database.close();
    await s3.close();
  });

  async function writeThree(destination: Destination) {
    for (const minute of [1, 2, 3]) await runScheduledBackup({ database, storage, destination, keep: 2, now: at(minute) });
    return (await destination.list()).sort();
  }

  it("writes complete archives to a directory and keeps the newest N", async () => {
    const dir = path.join(tempDir("scheduled-dir-"), "nested");
    const names = await writeThree(backupDestination({ kind: "dir", dir }, parseEnv({})));
    expect(names).toEqual([backupName(at(2)), backupName(at(3))]);
    expect(fs.readdirSync(dir).sort()).toEqual(names);
    const manifest = await verifyArchive(path.join(dir, backupName(at(3))));
    expect(manifest.tables.find((t) => t.name === "blog_posts")?.rows).toBe(1);
  });

  it("writes to an S3 prefix and keeps the newest N there", async () => {
    const env = parseEnv({ S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: "S3RVER", S3_SECRET_ACCESS_KEY: "S3RVER" });
    const names = await writeThree(backupDestination({ kind: "s3", bucket: "site-backups", prefix: "nightly" }, env));
    expect(names).toEqual([backupName(at(2)), backupName(at(3))]);
    const bucket = createS3Storage({
      bucket: "site-backups",
      region: "us-east-1",
      endpoint,
      accessKeyId: "S3RVER",
      secretAccessKey: "S3RVER",
      forcePathStyle: true,
    });
    const keys: string[] = [];
    for await (const object of bucket.list()) keys.push(object.key);
    expect(keys.sort()).toEqual(names.map((n) => `nightly/${n}`));
    const copy = path.join(tempDir("scheduled-copy-"), "copy.tar.gz");
    const object = await bucket.openRead(`nightly/${backupName(at(3))}`);
    if (!object) throw new Error("backup missing from the bucket");
    await new Promise<void>((resolve, reject) => object.stream.pipe(fs.createWriteStream(copy)).on("finish", resolve).on("error", reject));
    expect((await verifyArchive(copy)).tables.find((t) => t.name === "blog_posts")?.rows).toBe(1);
  });

  describe("its working directory", () => {
    // The archive is written under the system's temporary directory: os.tmpdir() reads TMPDIR on each call.
    const scratch = tempDir("scheduled-tmpdir-");
    const kept = tempDir("scheduled-kept-");
    const saved = process.env.TMPDIR;
    beforeAll(() => {
      process.env.TMPDIR = scratch;
    });
    afterAll(() => {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    });
    /** The destination's `store`, remembering where the archive was written. */
    const stored: string[] = [];
    const recording = (destination: Destination): Destination => ({
      ...destination,
      store: (file, name) => {
        stored.push(file);
        return destination.store(file, name);
      },
    });
    const run = (destination: Destination, files: Storage = storage) =>
      runScheduledBackup({ database, storage: files, destination: recording(destination), keep: 2, now: at(4) });

    it("is removed after a backup is stored", async () => {
      await run(backupDestination({ kind: "dir", dir: kept }, parseEnv({})));
      expect(fs.readdirSync(kept)).toEqual([backupName(at(4))]);
      expect(path.dirname(stored.at(-1) ?? "")).toContain(scratch);
      expect(fs.readdirSync(scratch)).toEqual([]);
    });

    // Where the system's temporary directory is on another filesystem than the backups, the archive is copied.
    const elsewhere = "/dev/shm";
    const copied = tempDir("scheduled-copied-");
    const otherFilesystem = fs.existsSync(elsewhere) && fs.statSync(elsewhere).dev !== fs.statSync(copied).dev;
    it.skipIf(!otherFilesystem)("is removed after the archive is copied across filesystems, and no partial copy stays", async () => {
      process.env.TMPDIR = elsewhere;
      const work = tempDir("scheduled-elsewhere-");
      process.env.TMPDIR = work;
      try {
        await run(backupDestination({ kind: "dir", dir: copied }, parseEnv({})));
      } finally {
        process.env.TMPDIR = scratch;
      }
      expect(path.dirname(stored.at(-1) ?? "")).toContain(work);
      expect(fs.readdirSync(copied)).toEqual([backupName(at(4))]);
      expect((await verifyArchive(path.join(copied, backupName(at(4))))).tables.length).toBeGreaterThan(0);
      expect(fs.readdirSync(work)).toEqual([]);
    });

    const refusing: Destination = {
      list: () => Promise.resolve([]),
      store: () => Promise.reject(new Error("disk full")),
      remove: () => Promise.resolve(),
    };

    it("is removed when the destination refuses the archive", async () => {
      await expect(run(refusing)).rejects.toThrow("disk full");
      expect(path.dirname(stored.at(-1) ?? "")).toContain(scratch);
      expect(fs.readdirSync(scratch)).toEqual([]);
    });

    it("is removed when the backup itself fails", async () => {
      const unreadable: Storage = {
        ...storage,
        list: () => {
          throw new Error("the files cannot be listed");
        },
      };
      await expect(run(refusing, unreadable)).rejects.toThrow("cannot be listed");
      expect(fs.readdirSync(scratch)).toEqual([]);
    });
  });
});
