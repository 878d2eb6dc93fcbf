import "react-router";
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import express, { type NextFunction, type Request, type Response } from "express";
import { pinoHttp } from "pino-http";
import { matchRoutes, type RouteObject } from "react-router";
// Modules that define jobs, so every instance's runner knows their kinds (docs/decisions/core-a-jobs.md).
import "~/features/auth/password-reset.server";
import "~/features/booking/booking.server";
import { startOutbox, stopOutbox } from "~/features/contact/outbox.server";
import { warmFeeds } from "~/features/feeds/feeds.server";
import { backfillRenderedPosts } from "~/features/posts/post-render.server";
// Defines the posts.publish job kind: every instance must know it to run scheduled publishing.
import "~/features/posts/scheduling.server";
import "~/features/posts/post-files.server";
import "~/features/uploads/orphans.server";
import "~/features/share-images/share-images.server";
// Defines the subscription email kinds (confirmation, new post to subscribers).
import "~/features/subscriptions/subscriptions.server";
import { seedDemoTestimonials } from "~/features/site/testimonials.server";
import { seedDemoPageContent } from "~/features/site/page-content.server";
import { seedDemoPositions } from "~/features/site/positions.server";
import { seedDemoBooking } from "~/features/booking/demo.server";
import { getSiteSettings } from "~/features/site/settings.server";
import { uploadKeyOf } from "~/features/uploads/uploads.server";
import { onContentVersionChange, startContentVersion, stopContentVersion } from "~/server/content-version.server";
import { getDatabase, migrateDatabase, openDatabase, setDatabase, type Database } from "~/server/db/client.server";
import { getEnv } from "~/server/env.server";
import { startMallocTrimming, stopMallocTrimming, tuneMalloc } from "~/server/glibc-malloc.server";
import { noteRequest, startIdleCollection, stopIdleCollection } from "~/server/gc.server";
import "~/server/housekeeping.server";
// Registers the embedded database's VACUUM of blog_posts (PGlite has no autovacuum).
import "~/server/db/vacuum.server";
import { scheduleBackups } from "~/server/backup/scheduled.server";
import { checkReadiness } from "~/server/health.server";
import { startJobRunner, stopJobRunner } from "~/server/jobs/runner.server";
// Registers the audit.prune recurring task with the runner.
import "~/server/audit.server";
import { UNEXPECTED_ERROR } from "~/server/errors.server";
import { formatBytes, LIMITS } from "~/server/limits.server";
import { logger } from "~/server/logger.server";
import { isMetricsTokenValid, recordRequest, renderMetrics } from "~/server/metrics.server";
import { PageCache } from "~/server/page-cache.server";
import { CLIENT_IP_HEADER } from "~/server/request.server";
import { seedIfEmpty } from "~/server/seed.server";
import { getStorage } from "~/server/storage.server";
import { answerFromPageCache, createPageCacheFront, createPageHandler } from "./page-handler";
import { securityHeaders } from "./security-headers";

/**
 * Rendered public pages for anonymous visitors (server/page-handler.ts); bounded by bytes. An entry
 * holds the page and its gzip (a post: 35 + 14 KB), so 16 MB keeps ~330 pages: every page of a small
 * site, and the most visited ones of a big site while crawlers go through the rest.
 */
export const pageCache = new PageCache({ maxBytes: 16 * 1024 * 1024, maxEntries: 5000, maxAgeMs: 60_000 });
// Frees the old version's pages at once rather than at the next request.
onContentVersionChange((version) => pageCache.useVersion(version));

/**
 * Page-cache hits, answered before any other middleware (docs/decisions/14b-cache-hit-path.md):
 * server.js runs it from its 'request' listener before Express, and this app mounts it right after
 * the security headers (test servers mount the app alone); a request already looked up is not
 * looked up again.
 */
const trustProxy = () => getEnv().TRUST_PROXY !== false;
export const pageCacheFront = createPageCacheFront(pageCache, trustProxy);
/** The same hit path for server.js's 'request' listener, before Express: true when it answered. */
export const answerPageCacheHit = (req: IncomingMessage, res: ServerResponse): boolean =>
  answerFromPageCache(pageCache, trustProxy, req, res);

export { getEnv, logger, noteRequest, securityHeaders };

let database: Database | undefined;
/** Start-up rendering work that runs beside the first requests; shutdown waits for it. */
let rendererWarmUp: Promise<void> = Promise.resolve();

/** Several instances share PostgreSQL but not a local upload directory. */
export const LOCAL_FILES_WARNING =
  "DATABASE_URL is set but S3 is not (S3_BUCKET): uploaded files are kept in this instance's own directory. Run a single instance, or configure S3 so that every instance serves the same files.";

const MIB = 1024 * 1024;

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
    ? await openDatabase({ kind: "postgres", url: env.DATABASE_URL })
    : await openDatabase({ kind: "pglite", dataDir: env.dataDir });
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
  if (env.DATABASE_URL && !env.S3_BUCKET) {
    logger.warn(LOCAL_FILES_WARNING);
  }
  await startContentVersion();
  startOutbox();
  scheduleBackups(env);
  await startJobRunner();
  // The home page's feeds are read once now, in the background, so no visitor waits for them.
  warmFeeds();
  const db = database.db;
  // Off the request path: older rows get their HTML while the server already answers (a row not
  // rendered yet is rendered on demand by the post page).
  rendererWarmUp = backfillRenderedPosts(db)
    .then(() => undefined)
    .catch((error: unknown) => logger.error({ err: error }, "rendering stored posts failed"));
}

/** Closes the database cleanly (PGlite must be closed to flush and release its directory). */
export async function shutdown(): Promise<void> {
  stopMallocTrimming();
  stopIdleCollection();
  await Promise.all([stopOutbox(), stopJobRunner(), stopContentVersion(), rendererWarmUp]);
  const open = database;
  database = undefined;
  setDatabase(undefined);
  if (open) await open.close();
}

export const app = express();
app.disable("x-powered-by");

app.use(securityHeaders);
app.use(pageCacheFront);

// One access log line per request: method, path (never the query string, which can carry a reset
// token), status, duration and a request id (also sent back as X-Request-Id). No headers, no bodies.
app.use(
  pinoHttp({
    logger,
    genReqId: (_req, res) => {
      const id = randomUUID();
      res.setHeader("X-Request-Id", id);
      return id;
    },
    serializers: {
      req: (req: { id: unknown; method: unknown; url: unknown }) => ({
        id: req.id,
        method: req.method,
        path: String(req.url).split("?")[0],
      }),
      res: (res: { statusCode: unknown }) => ({ status: res.statusCode }),
    },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? "error" : "info"),
    customSuccessMessage: () => "request",
    customErrorMessage: () => "request failed",
    autoLogging: { ignore: (req) => req.url === "/healthz" },
  }),
);

// Read on the first request: the configuration is loaded by then (test servers set it just before).
let trustConfigured = false;
app.use((req, _res, next) => {
  if (!trustConfigured) {
    const trust = getEnv().TRUST_PROXY;
    app.set("trust proxy", trust === false ? false : trust);
    trustConfigured = true;
  }
  // The client address, once per request, for rate limits and logs: the socket address, or with
  // TRUST_PROXY the X-Forwarded-For entry just before our trusted proxies. A client's own
  // CLIENT_IP_HEADER is overwritten.
  req.headers[CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? "unknown";
  next();
});

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

// CSRF defence in depth (cookies are also SameSite=Lax): a state-changing request sent by a browser
// from another site is refused. Non-browser clients send neither header and carry no cookie.
app.use((req, res, next) => {
  if (SAFE_METHODS.has(req.method)) return next();
  const origin = req.headers.origin;
  const site = req.headers["sec-fetch-site"];
  const host = req.headers["x-forwarded-host"] && getEnv().TRUST_PROXY ? String(req.headers["x-forwarded-host"]) : req.headers.host;
  let crossSite = site === "cross-site";
  if (origin && origin !== "null") {
    try {
      crossSite = new URL(origin).host !== host;
    } catch {
      crossSite = true;
    }
  } else if (origin === "null") {
    crossSite = true;
  }
  if (crossSite) {
    res.status(403).json({ error: "Cross-site request refused. Please use the form on this site." });
    return;
  }
  next();
});

// ---- Operations (docs/decisions/17-ops.md): liveness, readiness and Prometheus metrics.

/** The matched route's pattern ("/7fs/:category/:slug"): metrics are labelled by route, never by raw URL. */
function routePatternOf(table: RouteTable, pathname: string): string {
  // React Router's data requests (/x.data) run the loaders of /x.
  const data = pathname.endsWith(".data");
  const page = data ? pathname.slice(0, -".data".length) || "/" : pathname;
  const matches = matchesOf(table, page);
  const pattern = matches ? `/${matches.flatMap((m) => (m.route.path ? [m.route.path] : [])).join("/")}` : "unmatched";
  return data ? `${pattern}.data` : pattern;
}

const OPERATIONS_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

app.use(async (req, res, next) => {
  const started = process.hrtime.bigint();
  try {
    const route = OPERATIONS_PATHS.has(req.path) ? req.path : routePatternOf(await getRouteTable(), req.path);
    // Stored with a cached page, so its hits are counted under the same route (page-handler.ts).
    res.locals.metricsRoute = route;
    res.once("finish", () => recordRequest(req.method, route, res.statusCode, Number(process.hrtime.bigint() - started) / 1e9));
    next();
  } catch (error) {
    next(error);
  }
});

/**
 * /favicon.ico, which browsers and feed readers ask for without a link: the .ico made from the
 * owner's favicon when there is one, else (next) the default file. server.js mounts it before the
 * static files; here it serves the development server.
 */
export async function siteFavicon(req: Request, res: Response, next: NextFunction): Promise<void> {
  try {
    const { icons } = await getSiteSettings();
    const key = icons ? uploadKeyOf(icons.ico) : null;
    const file = key ? await getStorage().get(key) : null;
    if (!file) return next();
    res.status(200).type("image/x-icon").set("Cache-Control", "public, max-age=3600").send(file.body);
  } catch (error) {
    next(error);
  }
}
app.get("/favicon.ico", siteFavicon);

// Alive: answers without touching the database, so a database outage never restarts every instance.
app.get("/healthz", (_req, res) => {
  res.status(200).json({ status: "ok" });
});

app.get("/readyz", async (_req, res) => {
  let database: Database | undefined;
  try {
    database = getDatabase();
  } catch {
    database = undefined;
  }
  const readiness = await checkReadiness(database, getStorage);
  res.status(readiness.ready ? 200 : 503).json({ status: readiness.ready ? "ready" : "unavailable", ...readiness.checks });
});

app.get("/metrics", async (req, res, next) => {
  const token = getEnv().METRICS_TOKEN;
  // Off unless configured, and indistinguishable from any unknown address without the token.
  if (!token || !isMetricsTokenValid(req.headers.authorization, token)) return next();
  try {
    const { body, contentType } = await renderMetrics();
    res.status(200).type(contentType).set("Cache-Control", "no-store").send(body);
  } catch (error) {
    next(error);
  }
});

// ---- Robustness for raw HTTP (docs/decisions/107c-http-robustness.md): bad input gets a 4xx with a
// message a person can act on — JSON under /api — before it can reach a route and become a 500.

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];
const PAGE_METHODS = new Set(["GET", "HEAD", "POST"]);
const READ_ONLY_MESSAGE = "Method not allowed. This address only answers GET requests.";
const NO_ACTION_MESSAGE = "Method not allowed. This page does not accept that kind of request. Open it with a normal link instead.";

function refuse(req: Request, res: Response, status: number, error: string, headers: Record<string, string> = {}): void {
  res.set(headers);
  if (req.path.startsWith("/api/")) res.status(status).json({ error });
  else res.status(status).type("text/plain").send(error);
}

function hasBody(req: Request): boolean {
  return Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;
}

interface RouteInfo {
  loader: boolean;
  action: boolean;
  /** A route without a component answers with its own Response (feeds, files, /api). */
  resource: boolean;
}
interface RouteTable {
  tree: RouteObject[];
  info: Map<string, RouteInfo>;
}
let routeTable: RouteTable | undefined;

/** Matches by pathname, remembered: React Router flattens and ranks the whole route tree on every call. */
const MATCH_MEMO_SIZE = 1000;
const matchMemo = new Map<string, ReturnType<typeof matchRoutes>>();
function matchesOf(table: RouteTable, pathname: string): ReturnType<typeof matchRoutes> {
  if (matchMemo.has(pathname)) return matchMemo.get(pathname) ?? null;
  const matches = matchRoutes(table.tree, pathname);
  // Any address can be asked for: the memo is emptied rather than allowed to grow.
  if (matchMemo.size >= MATCH_MEMO_SIZE) matchMemo.clear();
  matchMemo.set(pathname, matches);
  return matches;
}
/** The app's routes as React Router matches them, with what each one answers. */
async function getRouteTable(): Promise<RouteTable> {
  if (routeTable) return routeTable;
  const build = await import("virtual:react-router/server-build");
  const entries = Object.values(build.routes).flatMap((route) => (route ? [route] : []));
  const info = new Map<string, RouteInfo>();
  for (const route of entries) {
    const m = route.module;
    info.set(route.id, {
      loader: typeof m.loader === "function",
      action: typeof m.action === "function",
      resource: typeof m.default !== "function",
    });
  }
  const childrenOf = (parentId: string | undefined): RouteObject[] =>
    entries
      .filter((route) => route.parentId === parentId)
      .map((route): RouteObject =>
        route.index
          ? { id: route.id, index: true, path: route.path, caseSensitive: route.caseSensitive }
          : { id: route.id, path: route.path, caseSensitive: route.caseSensitive, children: childrenOf(route.id) },
      );
  routeTable = { tree: childrenOf(undefined), info };
  matchMemo.clear();
  return routeTable;
}

/**
 * The route a request runs, by React Router's rule for submissions: the deepest route with a path of
 * its own (or the root), or an index route when the URL says ?index.
 */
function targetRoute(table: RouteTable, pathname: string, search: string): RouteInfo | undefined {
  const matches = matchesOf(table, pathname);
  if (!matches) return undefined;
  const last = matches[matches.length - 1];
  const nakedIndex = new URLSearchParams(search).getAll("index").includes("");
  const target = last?.route.index && nakedIndex ? last : matches.filter((m, i) => i === 0 || Boolean(m.route.path)).pop();
  return target?.route.id ? table.info.get(target.route.id) : undefined;
}

const UPLOAD_PATHS = new Set(["/api/uploads", "/api/uploads/resume"]);

app.use(async (req, res, next) => {
  try {
    // A NUL byte reaches no page and makes PostgreSQL refuse a text parameter.
    if (/%00/.test(req.originalUrl) || req.originalUrl.includes("\0")) {
      return refuse(req, res, 400, "The address contains an invalid character.");
    }
    const length = Number(req.headers["content-length"] ?? 0);
    // Upload routes read their bodies with limits of their own.
    if (!UPLOAD_PATHS.has(req.path)) {
      if (length > LIMITS.body) return refuse(req, res, 413, `The request is too large (at most ${formatBytes(LIMITS.body)}).`);
      // A body of unannounced size (chunked) could be any size; browsers always announce theirs.
      if (req.headers["content-length"] === undefined && req.headers["transfer-encoding"] !== undefined) {
        return refuse(req, res, 411, "Please send the request with a Content-Length header.");
      }
    }
    const query = req.originalUrl.indexOf("?");
    const route = targetRoute(await getRouteTable(), req.path, query === -1 ? "" : req.originalUrl.slice(query));
    if (req.path.startsWith("/api/")) {
      if (!route?.resource) return refuse(req, res, 404, "There is no such API endpoint.");
      const allowed = [...(route.loader ? ["GET", "HEAD"] : []), ...(route.action ? ["POST"] : [])];
      if (!allowed.includes(req.method)) {
        return refuse(req, res, 405, `Method not allowed. Use ${allowed.filter((m) => m !== "HEAD").join(" or ")}.`, {
          Allow: allowed.join(", "),
        });
      }
      return next();
    }
    if (!PAGE_METHODS.has(req.method)) {
      return refuse(req, res, 405, "Method not allowed. Pages accept GET, HEAD and form posts (POST).", { Allow: "GET, HEAD, POST" });
    }
    if (req.method === "POST" && hasBody(req)) {
      const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
      // React Router's own data requests (*.data) carry form bodies too; JSON is for /api only.
      if (!FORM_TYPES.includes(type)) {
        return refuse(req, res, 415, "Forms must be sent as application/x-www-form-urlencoded or multipart/form-data.");
      }
    }
    // A POST to an address without an action: answered here, so no route needs a stub and React
    // Router's developer message never reaches the page. (Its own data requests, *.data, are left to
    // it: the root error boundary shows those.)
    if (req.method === "POST" && route && !route.action && !req.path.endsWith(".data")) {
      return refuse(req, res, 405, route.resource ? READ_ONLY_MESSAGE : NO_ACTION_MESSAGE, { Allow: "GET, HEAD" });
    }
    next();
  } catch (error) {
    next(error);
  }
});

app.use(createPageHandler({ build: () => import("virtual:react-router/server-build"), cache: pageCache }));

// Last resort: an error that escaped a route (e.g. a broken request stream) answers without a stack.
app.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
  if (res.headersSent) return next(error);
  const status =
    typeof error === "object" &&
    error !== null &&
    "status" in error &&
    typeof error.status === "number" &&
    error.status >= 400 &&
    error.status < 500
      ? error.status
      : 500;
  if (status >= 500) logger.error({ err: error, path: req.path }, "request failed");
  refuse(req, res, status, status >= 500 ? UNEXPECTED_ERROR : "The request could not be read.");
});
