import { configureCollector } from "~/features/analytics/collector.server";
import { startViewFlushing, stopViewFlushing } from "~/features/analytics/ingest.server";
import { seedDemoBooking } from "~/features/booking/demo.server";
import { warmFeeds } from "~/features/feeds/feeds.server";
import { seedDemoPageContent } from "~/features/pages/page-content.server";
import { seedDemoPositions } from "~/features/pages/positions.server";
import { seedDemoTestimonials } from "~/features/pages/testimonials.server";
import { readSiteSettings } from "~/features/settings/settings.server";
import { missingSiteAddressNotice } from "~/features/settings/site-url.server";
import { backfillRenderedPosts } from "~/features/posts/content/post-render.server";
import { scheduleBackups } from "~/server/backup/scheduled.server";
import { startContentVersion, stopContentVersion } from "~/server/content-version.server";
import { getDb, migrateDatabase, openDatabase, setDatabase, type Database } from "~/server/db/client.server";
import { getEnv } from "~/server/env.server";
import { startIdleCollection, stopIdleCollection } from "~/server/gc.server";
import { startMallocTrimming, stopMallocTrimming, tuneMalloc } from "~/server/glibc-malloc.server";
import { startJobRunner, stopJobRunner } from "~/server/jobs/runner.server";
import { logger } from "~/server/logger.server";
import { startMailOutbox, stopMailOutbox } from "~/server/mail-outbox.server";
import { seedIfEmpty } from "~/server/seed.server";
import { JOBS, MAIL_KINDS, RECURRING_TASKS } from "./jobs";

let database: Database | undefined;
/** Start-up rendering work that runs beside the first requests; shutdown waits for it. */
let rendererWarmUp: Promise<void> = Promise.resolve();

/** Several instances share PostgreSQL but not a local upload directory. */
export const LOCAL_FILES_WARNING =
  "DATABASE_URL is set but S3 is not (S3_BUCKET): uploaded files are kept in this instance's own directory. Run a single instance, or configure S3 so that every instance serves the same files.";

const MIB = 1024 * 1024;
/** How often noted page views are written (docs/decisions/0047-visitor-statistics.md). */
const ANALYTICS_FLUSH_MS = 5_000;

/**
 * Memory at each start-up stage (npm run bench:startup reads these lines): RSS before vs after the
 * database opens is what the embedded PGlite itself takes, the rest is ours.
 */
function logStartupMemory(stage: string): void {
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  const mib = (bytes: number) => Math.round(bytes / MIB);
  logger.info(
    { stage, rssMiB: mib(rss), heapUsedMiB: mib(heapUsed), externalMiB: mib(external), arrayBuffersMiB: mib(arrayBuffers) },
    "start-up memory",
  );
}

/** Opens the database, applies migrations and seeds a new site — all before the server listens. */
export async function startup(): Promise<void> {
  const env = getEnv();
  for (const warning of env.warnings) logger.warn(warning);
  const started = Date.now();
  // Before PGlite compiles its module and before any image work: arenas made earlier stay.
  if (tuneMalloc()) logger.info("malloc tuned: 2 arenas, blocks over 128 KiB mapped on their own");
  startMallocTrimming();
  startIdleCollection();
  logStartupMemory("before the database");
  database = env.DATABASE_URL
    ? await openDatabase({ kind: "postgres", url: env.DATABASE_URL, connectTimeoutMs: env.DATABASE_TIMEOUT_MS })
    : await openDatabase({ kind: "pglite", dataDir: env.dataDir, onStopped: exitForRestart });
  logStartupMemory("database open");
  await migrateDatabase(database);
  await seedIfEmpty(database.db, env);
  // Page content added after a site was first seeded is seeded on its own (once, by its own marker).
  await seedDemoTestimonials(database.db, env.SEED_DEMO_CONTENT);
  await seedDemoPositions(database.db, env.SEED_DEMO_CONTENT);
  await seedDemoPageContent(database.db, env.SEED_DEMO_CONTENT);
  await seedDemoBooking(database.db, env.SEED_DEMO_CONTENT);
  setDatabase(database);
  logger.info({ database: database.kind, ms: Date.now() - started }, "database ready");
  logStartupMemory("migrated and seeded");
  // The first start (and every start until it is set) asks for the site address.
  const siteAddress = missingSiteAddressNotice(await readSiteSettings(database.db, env));
  if (siteAddress) logger.warn(siteAddress);
  if (env.DATABASE_URL && !env.S3_BUCKET) {
    logger.warn(LOCAL_FILES_WARNING);
  }
  await startContentVersion();
  await startMailOutbox();
  scheduleBackups(env);
  logger.debug(
    { jobs: JOBS.map((job) => job.kind), mail: MAIL_KINDS.map((mail) => mail.kind), tasks: RECURRING_TASKS.map((task) => task.name) },
    "job kinds, mail kinds and tasks",
  );
  await startJobRunner();
  // Page views are noted in memory on the request path and written every few seconds.
  configureCollector({ enabled: env.ANALYTICS, capPerMinute: env.ANALYTICS_MAX_VIEWS_PER_MINUTE });
  if (env.ANALYTICS) startViewFlushing(getDb, ANALYTICS_FLUSH_MS);
  // The home page's feeds are read once now, in the background, so no visitor waits for them.
  warmFeeds();
  const db = database.db;
  // Off the request path: older rows get their HTML while the server already answers (a row not
  // rendered yet is rendered on demand by the post page).
  rendererWarmUp = backfillRenderedPosts(db)
    .then(() => undefined)
    .catch((error: unknown) => logger.error({ err: error }, "rendering stored posts failed"));
}

/**
 * The embedded database stopped for good (PostgreSQL PANICs when it cannot write its log, e.g. on
 * a full disk): every request now answers 503, and the process ends with status 1 after the requests
 * in flight, so a supervisor (systemd, Docker's restart policy) starts it again; the new start
 * recovers the database from its log once there is room. Nothing committed before is lost.
 */
function exitForRestart(reason: string): void {
  logger.fatal(
    { reason },
    "The embedded database stopped after a failed write (is the disk full?). Exiting with status 1 so a supervisor restarts the server; free disk space first.",
  );
  process.exitCode = 1;
  process.kill(process.pid, "SIGTERM");
}

/** Closes the database cleanly (PGlite must be closed to flush and release its directory). */
export async function shutdown(): Promise<void> {
  stopMallocTrimming();
  stopIdleCollection();
  await Promise.all([stopMailOutbox(), stopJobRunner(), stopContentVersion(), rendererWarmUp, stopViewFlushing(database?.db)]);
  const open = database;
  database = undefined;
  setDatabase(undefined);
  if (open) await open.close();
}
