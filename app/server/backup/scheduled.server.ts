import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createReadStream } from "node:fs";
import { getDatabase, type Database } from "~/server/db/client.server";
import type { Env } from "~/server/env.server";
import { defineRecurringTask } from "~/server/jobs/recurring.server";
import { logger } from "~/server/logger.server";
import { createS3Storage, getStorage, type Storage } from "~/server/storage.server";
import { createBackup } from "./backup.server";

/**
 * Scheduled backups (BACKUP_DIR, BACKUP_INTERVAL_HOURS, BACKUP_KEEP): the running server writes the
 * same archive as `npm run cli -- backup`, to a directory or an S3 prefix, and keeps the newest N.
 * A recurring task (task_leases) makes one instance at a time do it, at the interval across all.
 */
export type BackupTarget = { kind: "dir"; dir: string } | { kind: "s3"; bucket: string; prefix: string };

/** `s3://bucket/prefix` or a directory path. */
export function parseBackupTarget(value: string): BackupTarget {
  const s3 = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(value);
  if (!s3) return { kind: "dir", dir: path.resolve(value) };
  return { kind: "s3", bucket: s3[1] ?? "", prefix: (s3[2] ?? "").replace(/^\/+|\/+$/g, "") || "backups" };
}

/** Backup names sort by time: backup-20260131T020000123Z.tgz. */
const NAME = /^backup-\d{8}T\d{9}Z\.tgz$/;
export function backupName(now: Date): string {
  return `backup-${now.toISOString().replace(/[-:.]/g, "")}`.replace(/Z$/, "Z.tgz");
}

export interface Destination {
  /** Names of the backups present, any order. */
  list(): Promise<string[]>;
  /** Moves a finished archive (a local file) into place under `name`. */
  store(file: string, name: string): Promise<void>;
  remove(name: string): Promise<void>;
}

function directory(dir: string): Destination {
  return {
    list: async () => (await fs.readdir(dir).catch(() => [])).filter((n) => NAME.test(n)),
    store: async (file, name) => {
      await fs.mkdir(dir, { recursive: true });
      const target = path.join(dir, name);
      await fs.rename(file, target).catch(async () => {
        // Another filesystem (a mounted volume, a tmpfs /tmp): copied under a name list() skips and renamed
        // once complete, so a copy cut short (a full disk) is removed and never passes for a backup.
        const partial = `${target}.partial`;
        try {
          await fs.copyFile(file, partial);
          await fs.rename(partial, target);
        } catch (error) {
          await fs.rm(partial, { force: true });
          throw error;
        }
        await fs.rm(file, { force: true });
      });
    },
    remove: (name) => fs.rm(path.join(dir, name), { force: true }),
  };
}

function bucket(storage: Storage, prefix: string): Destination {
  return {
    async list() {
      const names: string[] = [];
      for await (const object of storage.list()) {
        const name = object.key.slice(prefix.length + 1);
        if (object.key.startsWith(`${prefix}/`) && NAME.test(name)) names.push(name);
      }
      return names;
    },
    async store(file, name) {
      const { size } = await fs.stat(file);
      await storage.putStream(`${prefix}/${name}`, createReadStream(file), size, "application/gzip");
      await fs.rm(file, { force: true });
    },
    remove: (name) => storage.delete(`${prefix}/${name}`),
  };
}

export interface ScheduledBackupOptions {
  database: Database;
  /** The site's files (what is backed up). */
  storage: Storage;
  destination: Destination;
  keep: number;
  now?: Date;
}

/** Writes one backup and deletes all but the newest `keep`. Returns the new backup's name. */
export async function runScheduledBackup(options: ScheduledBackupOptions): Promise<string> {
  const name = backupName(options.now ?? new Date());
  const work = await fs.mkdtemp(path.join(os.tmpdir(), "scheduled-backup-"));
  try {
    const file = path.join(work, name);
    const summary = await createBackup({ database: options.database, storage: options.storage, file });
    await options.destination.store(file, name);
    const names = (await options.destination.list()).sort().reverse();
    for (const old of names.slice(options.keep)) await options.destination.remove(old);
    logger.info(
      { backup: name, bytes: summary.bytes, rows: summary.rows, files: summary.files, removed: names.slice(options.keep) },
      "scheduled backup written",
    );
    return name;
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

export function backupDestination(target: BackupTarget, env: Env): Destination {
  if (target.kind === "dir") return directory(target.dir);
  const storage = createS3Storage({
    bucket: target.bucket,
    region: env.S3_REGION,
    endpoint: env.S3_ENDPOINT,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
  });
  return bucket(storage, target.prefix);
}

/** Registers the recurring backup task when BACKUP_DIR is set (call before the job runner starts). */
export function scheduleBackups(env: Env): void {
  if (!env.BACKUP_DIR) return;
  const destination = backupDestination(parseBackupTarget(env.BACKUP_DIR), env);
  defineRecurringTask(
    "backup.scheduled",
    env.BACKUP_INTERVAL_HOURS * 3_600_000,
    async () => {
      await runScheduledBackup({ database: getDatabase(), storage: getStorage(), destination, keep: env.BACKUP_KEEP });
    },
    { firstRunDelayMs: env.BACKUP_INTERVAL_HOURS * 3_600_000, retryMs: 15 * 60_000, leaseMs: 5 * 60_000 },
  );
}
