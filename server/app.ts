import "react-router";
import type { IncomingMessage, ServerResponse } from "node:http";
import express from "express";
import { slotPageVersion } from "~/features/booking/booking.server";
import { onContentVersionChange } from "~/server/content-version.server";
import { getDb } from "~/server/db/client.server";
import { getEnv } from "~/server/env.server";
import { noteRequest } from "~/server/gc.server";
import { logger } from "~/server/logger.server";
import { PageCache } from "~/server/page-cache.server";
import { accessLog, measureRequest, operations, siteFavicon } from "./operations";
import { answerFromPageCache, createPageCacheFront, createPageHandler } from "./page-handler";
export { settleHttpObjectShapes } from "./object-shapes";
import { clientAddress, lastResort, refuseBadRequests, refuseCrossSite, refuseMisdirected } from "./request-guards";
import { securityHeaders } from "./security-headers";

// The HTTP pipeline, in the order a request meets it. What each step does lives in its own module:
// start-up and shutdown (startup.ts), the jobs the server runs (jobs.ts), operations endpoints and
// the access log (operations.ts), the request checks (request-guards.ts), React Router's route
// table (route-table.ts) and the page cache's front and handler (page-handler.ts).

/**
 * Rendered public pages for anonymous visitors (server/page-handler.ts); bounded by bytes. An entry
 * holds the page and its gzip (a post: 35 + 14 KB), so 16 MB keeps ~330 pages: every page of a small
 * site, and the most visited ones of a big site while crawlers go through the rest.
 */
export const pageCache = new PageCache({ maxBytes: 16 * 1024 * 1024, maxEntries: 5000, maxAgeMs: 60_000 });
/**
 * The guarded pages (/book per call type, day and zone: ~45 + 8 KB each), bounded apart so that a
 * crawler going through every day never pushes the public pages out.
 */
const guardedPageCache = new PageCache({ maxBytes: 4 * 1024 * 1024, maxEntries: 1000, maxAgeMs: 60_000 });
// Frees the old version's pages at once rather than at the next request.
onContentVersionChange((version) => {
  pageCache.useVersion(version);
  guardedPageCache.useVersion(version);
});

/**
 * Page-cache hits, answered before any other middleware (docs/decisions/0031-cache-hit-path.md):
 * server.js runs it from its 'request' listener before Express, and this app mounts it right after
 * the security headers (test servers mount the app alone); a request already looked up is not
 * looked up again.
 */
const trustProxy = () => getEnv().TRUST_PROXY !== false;
export const pageCacheFront = createPageCacheFront(pageCache, trustProxy);
/** The same hit path for server.js's 'request' listener, before Express: true when it answered. */
export const answerPageCacheHit = (req: IncomingMessage, res: ServerResponse): boolean =>
  answerFromPageCache(pageCache, trustProxy, req, res);

export { getEnv, logger, noteRequest, securityHeaders, siteFavicon };
export { LOCAL_FILES_WARNING, shutdown, startup } from "./startup";

export const app = express();
app.disable("x-powered-by");

app.use(securityHeaders);
app.use(pageCacheFront);
app.use(accessLog);
app.use(clientAddress(app));
app.use(refuseCrossSite);
// ---- Operations (docs/decisions/0023-operations-endpoints.md): liveness, readiness and Prometheus metrics.
app.use(measureRequest);
app.get("/favicon.ico", siteFavicon);
app.use(operations);
// ---- Only the site's own host names (docs/decisions/0073-configured-hosts.md); the operations endpoints above answer any.
app.use(refuseMisdirected);
// ---- Robustness for raw HTTP (docs/decisions/0014-http-robustness.md).
app.use(refuseBadRequests);
/**
 * The guarded pages' values (page-cache.server.ts): the slot page, /book, is the only one; its stored
 * renders serve only requests that read the same slot stamp and pause (docs/decisions/0083-slot-page-cache.md).
 */
const guard = (url: URL) => (url.pathname === "/book" ? slotPageVersion(getDb()) : Promise.resolve(null));
app.use(
  createPageHandler({ build: () => import("virtual:react-router/server-build"), cache: pageCache, guardedCache: guardedPageCache, guard }),
);
app.use(lastResort);
