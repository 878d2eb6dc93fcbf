import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { readSiteSettings } from "~/features/settings/settings.server";
import { configuredSiteUrl, missingSiteAddressNotice } from "~/features/settings/site-url.server";
import { appliedMigration, loadMigrations } from "~/server/backup/database-info.server";
import { MIGRATIONS_DIR, openDatabase, type Database } from "~/server/db/client.server";
import { type Env, getEnv } from "~/server/env.server";
import { ValidationError } from "~/server/errors.server";
import { describeSmtpError, verifyMailServer } from "~/server/mail.server";
import { readMailConfig } from "~/server/mail-settings.server";
import { getStorage, type Storage } from "~/server/storage.server";
import type { CliIo } from "./io";

export type CheckLevel = "ok" | "warn" | "fail";

/** One line of the doctor's report: what was checked, what was found, and what to do about it. */
export interface DoctorFinding {
  level: CheckLevel;
  check: string;
  found: string;
  fix?: string;
}

export interface DoctorDeps {
  env: () => Env;
  openDatabase: (env: Env) => Promise<Database>;
  storage: () => Storage;
}

/** Free space below these is a warning, below the last a failure (uploads, backups and the embedded database need room). */
const DISK_WARN_BYTES = 1024 ** 3;
const DISK_WARN_SHARE = 0.05;
const DISK_FAIL_BYTES = 100 * 1024 ** 2;
/** The database's clock and this machine's may differ by this much before schedules and sign-in codes notice. */
const CLOCK_WARN_MS = 2_000;
const CLOCK_FAIL_MS = 30_000;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The nearest directory that exists at or above a path (a data directory may not be created yet). */
function existingAncestor(dir: string): string {
  let at = path.resolve(dir);
  while (!fs.existsSync(at) && path.dirname(at) !== at) at = path.dirname(at);
  return at;
}

function diskFinding(label: string, dir: string): DoctorFinding {
  const stats = fs.statfsSync(existingAncestor(dir));
  const free = stats.bavail * stats.bsize;
  const share = stats.blocks === 0 ? 1 : stats.bavail / stats.blocks;
  const found = `${(free / 1024 ** 3).toFixed(1)} GiB free (${Math.round(share * 100)} %) for ${label} at ${dir}`;
  if (free < DISK_FAIL_BYTES) return { level: "fail", check: "Disk", found, fix: "Free disk space: writes fail when the disk is full." };
  if (free < DISK_WARN_BYTES || share < DISK_WARN_SHARE)
    return { level: "warn", check: "Disk", found, fix: "Free disk space or move the data elsewhere (DATA_DIR, UPLOAD_DIR, BACKUP_DIR)." };
  return { level: "ok", check: "Disk", found };
}

function diskFindings(env: Env): DoctorFinding[] {
  return [
    diskFinding("the data", env.dataDir),
    ...(env.UPLOAD_DIR ? [diskFinding("uploads", env.UPLOAD_DIR)] : []),
    ...(env.BACKUP_DIR ? [diskFinding("backups", env.BACKUP_DIR)] : []),
  ];
}

const storageLabel = (env: Env) => (env.S3_BUCKET ? `S3 bucket ${env.S3_BUCKET}` : "local files");

/** The migration level, and whether the database was ever migrated (a new one holds no table yet). */
async function migrationFinding(database: Database): Promise<DoctorFinding & { empty: boolean }> {
  const shipped = loadMigrations(MIGRATIONS_DIR);
  const newest = Math.max(0, ...shipped.map((m) => m.createdAt));
  const applied = (await appliedMigration(database.db))?.createdAt ?? 0;
  const empty = applied === 0;
  if (applied > newest)
    return {
      empty,
      level: "fail",
      check: "Migrations",
      found: "the database was migrated by a newer version of the site",
      fix: "Run the newer version, or restore a backup made before the upgrade.",
    };
  const pending = shipped.filter((m) => m.createdAt > applied).length;
  if (pending > 0)
    return {
      empty,
      level: "warn",
      check: "Migrations",
      found: `${pending} of ${shipped.length} migrations not applied yet`,
      fix: "They run when the server starts; start it (or run any account command) to apply them.",
    };
  return { empty, level: "ok", check: "Migrations", found: `all ${shipped.length} applied` };
}

async function clockFinding(database: Database): Promise<DoctorFinding> {
  const before = Date.now();
  const [row] = z
    .object({ rows: z.array(z.object({ now: z.coerce.number() })) })
    .parse(await database.db.execute(sql`select (extract(epoch from clock_timestamp()) * 1000)::float8 as now`)).rows;
  const local = (before + Date.now()) / 2;
  const skew = Math.abs((row?.now ?? local) - local);
  const found = `this machine and the database agree within ${Math.round(skew)} ms (${new Date(local).toISOString()})`;
  if (skew > CLOCK_FAIL_MS)
    return {
      level: "fail",
      check: "Clock",
      found,
      fix: "Synchronise both clocks (NTP): scheduled posts and sign-in codes depend on them.",
    };
  if (skew > CLOCK_WARN_MS) return { level: "warn", check: "Clock", found, fix: "Synchronise both clocks (NTP)." };
  return { level: "ok", check: "Clock", found };
}

async function storageFinding(storage: Storage, where: string): Promise<DoctorFinding> {
  const key = `doctor/probe-${crypto.randomUUID()}.txt`;
  const body = Buffer.from(`doctor ${new Date().toISOString()}`);
  try {
    await storage.put(key, body, "text/plain");
    // Removed however the read goes: a doctor run leaves nothing in the site's files.
    const read = await storage.get(key).finally(() => storage.delete(key));
    if (!read?.body.equals(body)) return { level: "fail", check: "Storage", found: `${where}: a file written could not be read back` };
    return { level: "ok", check: "Storage", found: `${where}: write, read and delete work` };
  } catch (error) {
    return {
      level: "fail",
      check: "Storage",
      found: `${where}: ${messageOf(error)}`,
      fix: "Check the directory's permissions, or the S3_* settings and the bucket.",
    };
  }
}

async function mailFinding(database: Database): Promise<DoctorFinding> {
  const config = await readMailConfig(database.db);
  if (!config)
    return {
      level: "warn",
      check: "Email",
      found: "not set up: contact messages are kept in the inbox, no sign-in or subscription email goes out",
      fix: "Set it up in the admin (Email) or with SMTP_URL.",
    };
  const where = config.source === "env" ? "SMTP_URL" : `${config.host}:${config.port}`;
  try {
    await verifyMailServer(config);
    return { level: "ok", check: "Email", found: `${where} accepts a connection and the sign-in` };
  } catch (error) {
    return {
      level: "fail",
      check: "Email",
      found: `${where}: ${describeSmtpError(error)}`,
      fix: "Correct the Email settings in the admin.",
    };
  }
}

/**
 * Every check an operator wants before (and after) putting the site in front of people: the
 * configuration, the database and its migration level, the site address, file storage, email, the
 * clock and free disk space. Nothing is changed but a probe file, written and removed.
 */
export async function runDoctorChecks(deps: DoctorDeps): Promise<DoctorFinding[]> {
  const findings: DoctorFinding[] = [];
  let env: Env;
  try {
    env = deps.env();
  } catch (error) {
    return [
      { level: "fail", check: "Configuration", found: messageOf(error), fix: "Correct the variables named above (see .env.example)." },
    ];
  }
  findings.push({ level: "ok", check: "Configuration", found: "every variable is valid" });
  for (const warning of env.warnings) findings.push({ level: "warn", check: "Configuration", found: warning });
  const where = env.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : `embedded database in ${env.dataDir}`;
  let database: Database | undefined;
  try {
    database = await deps.openDatabase(env);
    await database.ping();
    findings.push({ level: "ok", check: "Database", found: `${where} answers` });
  } catch (error) {
    findings.push({
      level: "fail",
      check: "Database",
      found: `${where}: ${messageOf(error)}`,
      fix: env.DATABASE_URL ? "Check that PostgreSQL runs and DATABASE_URL is right." : "Stop the running site, or check DATA_DIR.",
    });
  }
  try {
    if (database) {
      const { empty, ...migrations } = await migrationFinding(database);
      findings.push(migrations);
      // A database never migrated has no settings yet: the server's first start creates them.
      if (empty) {
        findings.push({ level: "warn", check: "Settings", found: "not checked: the database is empty until the server first starts" });
        findings.push(await storageFinding(deps.storage(), storageLabel(env)));
        return [...findings, ...diskFindings(env)];
      }
      const settings = await readSiteSettings(database.db, env);
      const site = configuredSiteUrl(settings);
      findings.push(
        site
          ? { level: "ok", check: "Site address", found: `${site}: pages answer only for its host name (and localhost)` }
          : {
              level: "warn",
              check: "Site address",
              found: missingSiteAddressNotice(settings) ?? "not set",
              fix: "Set PUBLIC_URL=https://your.site (or the Site address in the admin's Settings).",
            },
      );
      findings.push(await mailFinding(database));
      findings.push(await clockFinding(database));
    }
    findings.push(await storageFinding(deps.storage(), storageLabel(env)));
    findings.push(...diskFindings(env));
  } finally {
    await database?.close();
  }
  return findings;
}

const LABEL: Record<CheckLevel, string> = { ok: "ok  ", warn: "warn", fail: "FAIL" };

/** `npm run cli -- doctor`: prints each finding and what to fix; fails (exit 1) when anything must be fixed. */
export async function runDoctor(io: CliIo, deps: DoctorDeps = defaultDeps): Promise<void> {
  const findings = await runDoctorChecks(deps);
  for (const finding of findings) {
    io.out(`${LABEL[finding.level]}  ${finding.check}: ${finding.found}`);
    if (finding.fix && finding.level !== "ok") io.out(`      → ${finding.fix}`);
  }
  const failed = findings.filter((f) => f.level === "fail").length;
  const warned = findings.filter((f) => f.level === "warn").length;
  if (failed > 0) throw new ValidationError(`${failed} problem${failed === 1 ? "" : "s"} to fix${warned ? `, ${warned} to look at` : ""}.`);
  io.out(warned ? `Nothing broken; ${warned} thing${warned === 1 ? "" : "s"} to look at.` : "Everything looks right.");
}

const defaultDeps: DoctorDeps = {
  env: getEnv,
  openDatabase: (env) =>
    env.DATABASE_URL
      ? openDatabase({ kind: "postgres", url: env.DATABASE_URL, poolSize: 1 })
      : openDatabase({ kind: "pglite", dataDir: env.dataDir }),
  storage: getStorage,
};
