import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { createRequestHandler, type RouterContextProvider, type ServerBuild } from "react-router";
import { notePageView } from "~/features/analytics/collector.server";
import { SESSION_COOKIE } from "~/features/auth/session.server";
import { currentContentVersion, refreshContentVersion } from "~/server/content-version.server";
import { answerUnavailable } from "~/server/failure-reply.server";
import { logger } from "~/server/logger.server";
import { observeRequest, recordPageCacheLookup, requestSeries, type RequestSeries } from "~/server/metrics.server";
import { createNonce, NONCE_HEADER, NONCE_PLACEHOLDER, stampNonce } from "~/server/nonce.server";
import {
  cacheableUrl,
  createCachedPage,
  encodePage,
  encodePieces,
  encodingsAccepted,
  isGuardedPath,
  isStorable,
  matchesEtag,
  PageCache,
  PRIVATE_CACHE_CONTROL,
  renderExpiryOf,
  type CachedPage,
  type RenderedPage,
} from "~/server/page-cache.server";
import { isSecureRequest } from "~/server/request.server";
import { openRequestScope, REQUEST_SCOPE_HEADER } from "~/server/request-scope.server";
import { securityHeaderTemplate, withNonce, type HeaderTemplate } from "./security-headers";
import { createTurnQueue } from "./turn-queue";

/**
 * React Router's request handler for Express (in place of @react-router/express), with the page
 * cache in front of it (docs/decisions/0022-page-cache.md): anonymous GET/HEAD of public pages are
 * answered from memory, per content version; a write answers only once this instance has read the
 * version it produced, so the writer never sees its own page stale.
 */
export interface PageHandlerOptions {
  build: () => Promise<ServerBuild>;
  cache: PageCache;
  /** Where guarded pages are kept (default `cache`): their own bound, so they never push public pages out. */
  guardedCache?: PageCache;
  getLoadContext?: (req: Request, res: Response) => RouterContextProvider;
  /**
   * For a guarded page (page-cache.server.ts, isGuardedPath): the value read from the database on every
   * request that its stored render must match (the slot page: the slot stamp and the pause), or null to
   * render it for this request only. Without it, guarded pages are never cached.
   */
  guard?: (url: URL) => Promise<string | null>;
}

/** The request's URL as the adapter of @react-router/express builds it (host from the proxy when trusted). */
function requestUrl(req: Request, protocol: string, trustProxy: boolean): URL {
  const forwarded = trustProxy ? req.get("X-Forwarded-Host")?.split(",")[0]?.trim() : undefined;
  const host = forwarded || req.get("host") || "localhost";
  try {
    return new URL(`${protocol}://${host}${req.originalUrl}`);
  } catch {
    return new URL(`${protocol}://localhost${req.originalUrl}`);
  }
}

/**
 * A cacheable request's normalized URL and its key in the cache. The scheme is part of the key: a page
 * holds absolute links (canonical, feeds) in the request's scheme when no site address is configured,
 * so a page rendered for http must never answer an https visitor, nor the other way round.
 */
function cacheTarget(method: string, cookie: string | undefined, url: URL): { url: URL; key: string; guarded: boolean } | null {
  const cacheUrl = cacheableUrl(method, url, cookie);
  return (
    cacheUrl && {
      url: cacheUrl,
      key: `${cacheUrl.protocol}//${cacheUrl.host}${cacheUrl.pathname}${cacheUrl.search}`,
      guarded: isGuardedPath(cacheUrl.pathname),
    }
  );
}

/**
 * The key of a cacheable request: a guarded page's with the value its guard read now (null: render
 * it for this request only, as when there is no guard or the read failed, so the page shows the failure).
 */
async function guardedKey(target: { url: URL; key: string; guarded: boolean }, guard: PageHandlerOptions["guard"]): Promise<string | null> {
  if (!target.guarded) return target.key;
  if (!guard) return null;
  const value = await guard(target.url).catch((error: unknown) => {
    logger.warn({ err: error, path: target.url.pathname }, "page cache: a guarded page's value could not be read");
    return null;
  });
  return value === null ? null : `${target.key}\n${value}`;
}

function responseNonce(res: Response): string | undefined {
  const nonce: unknown = res.locals.cspNonce;
  return typeof nonce === "string" ? nonce : undefined;
}

function requestHeaders(req: Request): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/**
 * The Fetch request React Router renders. `shared`: rendered once for every anonymous visitor (the
 * page cache), so it carries the nonce placeholder in place of this response's nonce
 * (security-headers.ts hands the nonce to the renderer as NONCE_HEADER).
 */
function toFetchRequest(req: Request, res: Response, url: URL, { method = req.method, shared = false } = {}): globalThis.Request {
  const controller = new AbortController();
  const scope = openRequestScope();
  res.on("close", () => {
    scope.close();
    if (!res.writableFinished) controller.abort();
  });
  const headers = requestHeaders(req);
  headers.set(REQUEST_SCOPE_HEADER, scope.id);
  if (shared) headers.set(NONCE_HEADER, NONCE_PLACEHOLDER);
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal: controller.signal };
  if (method !== "GET" && method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(url.href, init);
}

/**
 * Every cookie of a response to an https request is Secure (the session, the pending sign-in, the
 * toast, …), decided here once rather than by each cookie's writer, which may not have the request.
 */
function secureCookie(value: string): string {
  return /;\s*secure\s*(?:;|$)/i.test(value) ? value : `${value}; Secure`;
}

async function sendResponse(res: Response, response: globalThis.Response, https: boolean): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) res.append(name, https && name === "set-cookie" ? secureCookie(value) : value);
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}

/** A page rendered for sharing that could not be stored (a 404, a redirect): sent once, with this response's nonce. */
function sendBuffered(req: Request, res: Response, rendered: RenderedPage, nonce: string | undefined): void {
  res.statusMessage = rendered.statusText;
  res.status(rendered.status);
  for (const [name, value] of rendered.headers.entries()) if (name !== "content-length") res.append(name, value);
  const body = rendered.body.includes(NONCE_PLACEHOLDER)
    ? Buffer.from(stampNonce(rendered.body.toString("utf8"), nonce ?? createNonce()))
    : rendered.body;
  res.setHeader("Content-Length", body.length);
  res.end(req.method === "HEAD" ? undefined : body);
}

/** A page's own headers with the cache's, as a flat [name, value, …] list: made once per stored page. */
const pageFields = new WeakMap<CachedPage, string[]>();
function fieldsOf(page: CachedPage): string[] {
  let fields = pageFields.get(page);
  if (!fields) {
    fields = [...page.headers.flat(), "ETag", page.etag, "Cache-Control", page.cacheControl, "Vary", "Accept-Encoding"];
    pageFields.set(page, fields);
  }
  return fields;
}

/** Whether a stored page is an HTML page (a view to count) rather than a feed or sitemap: decided once per page. */
const htmlPages = new WeakMap<CachedPage, boolean>();
function isHtmlPage(page: CachedPage): boolean {
  let html = htmlPages.get(page);
  if (html === undefined) {
    html =
      page.status === 200 && page.headers.some(([name, value]) => name.toLowerCase() === "content-type" && value.startsWith("text/html"));
    htmlPages.set(page, html);
  }
  return html;
}

/**
 * Counts a view of a public page (app/features/analytics/collector.server.ts: noted in memory,
 * written by the flush): an HTML page sent whole or as a 304, to a visitor without a session.
 */
function countView(req: IncomingMessage, html: boolean, status: number): void {
  if (html && (status === 200 || status === 304) && !hasSession(req.headers.cookie)) notePageView(req);
}

/** The session cookie, matched without parsing the header. */
const SESSION_COOKIE_PATTERN = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=`);
function hasSession(cookie: string | undefined): boolean {
  return cookie !== undefined && SESSION_COOKIE_PATTERN.test(cookie);
}

/** Headers a 304 leaves out (see sendCached). */
const NOT_ON_304 = new Set(["content-security-policy", "content-type"]);

/**
 * A stored page: 304 when the client has it, else the best precompressed form it accepts, with one
 * writeHead. `leading` are fields to send first (the security headers and X-Request-Id on the hit
 * path, which runs before the middleware that would set them); headers already set with setHeader
 * are kept.
 */
function sendCached(req: IncomingMessage, res: ServerResponse, page: CachedPage, nonce: string, leading: string[] = []): void {
  const fields = [...leading, ...fieldsOf(page)];
  const ifNoneMatch = req.headers["if-none-match"];
  if (ifNoneMatch && matchesEtag(ifNoneMatch, page.etag)) {
    // The browser keeps the body it has, with that body's nonce: a policy with a new nonce would
    // block its scripts, and a 304 without the header leaves the stored one in force (RFC 9111 §4.3.4).
    res.removeHeader("Content-Security-Policy");
    res.removeHeader("Content-Type");
    res.writeHead(304, withoutFields(fields, NOT_ON_304));
    res.end();
    return;
  }
  const { body, encoding } = encodePage(page, nonce, encodingsAccepted(req.headers["accept-encoding"]));
  if (encoding) fields.push("Content-Encoding", encoding);
  fields.push("Content-Length", String(body.length));
  res.writeHead(page.status, fields);
  res.end(req.method === "HEAD" ? undefined : body);
}

type Handle = (request: globalThis.Request, context?: RouterContextProvider) => Promise<globalThis.Response>;

async function renderForCache(
  handle: Handle,
  request: globalThis.Request,
  context: RouterContextProvider | undefined,
  route: string,
  guarded = false,
): Promise<RenderedPage> {
  const response = await handle(request, context);
  const body = Buffer.from(await response.arrayBuffer());
  // Read after the whole body: loaders (and the deferred data they stream) have named their expiry.
  const expiresAt = renderExpiryOf(request);
  const page = isStorable(response.status, response.headers)
    ? await createCachedPage(response.status, response.headers, body, route, { expiresAt, guarded })
    : null;
  return { status: response.status, statusText: response.statusText, headers: response.headers, body, page };
}

/** The content version, or undefined while it is not being followed (then nothing is cached). */
function contentVersion(): number | undefined {
  try {
    return currentContentVersion();
  } catch {
    return undefined;
  }
}

/** The metrics label server/app.ts gave this request's route (stored with the page, for hits). */
function routeLabel(res: Response): string {
  const route: unknown = res.locals.metricsRoute;
  return typeof route === "string" ? route : "unmatched";
}

/** Requests already looked up by the hit path (server.js runs it before Express, and app.ts mounts it too). */
const lookedUp = new WeakSet<IncomingMessage>();

/**
 * Each raw host + request-target's cache key (null: not cacheable), so a hit does not parse and
 * normalize the URL again. Only GET/HEAD without a cookie get here, and for those the key depends
 * on nothing else. Bounded: emptied when full (distinct addresses are few; a flood of made-up ones
 * only costs the parse it would have cost anyway).
 */
const rawTargets = new Map<string, { key: string; guarded: boolean } | null>();
const MAX_RAW_TARGETS = 2_000;

/** The request's normalized cache key, from the raw request (host from the proxy when trusted). */
function rawCacheTarget(req: IncomingMessage, trustProxy: boolean): { key: string; guarded: boolean } | null {
  const forwarded = trustProxy ? headerValue(req.headers["x-forwarded-host"])?.split(",")[0]?.trim() : undefined;
  const host = forwarded || req.headers.host || "localhost";
  // As Express reads req.protocol: the proxy's X-Forwarded-Proto (first hop) only when trusted.
  const proto =
    trustProxy && headerValue(req.headers["x-forwarded-proto"])?.split(",")[0]?.trim().toLowerCase() === "https" ? "https" : "http";
  const raw = `${proto} ${host} ${req.url ?? "/"}`;
  const known = rawTargets.get(raw);
  if (known !== undefined) return known;
  let target: { key: string; guarded: boolean } | null;
  try {
    target = cacheTarget(req.method ?? "GET", req.headers.cookie, new URL(`${proto}://${host}${req.url ?? "/"}`));
  } catch {
    target = null;
  }
  if (rawTargets.size >= MAX_RAW_TARGETS) rawTargets.clear();
  rawTargets.set(raw, target && { key: target.key, guarded: target.guarded });
  return target;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The page cache's hit path (docs/decisions/0031-cache-hit-path.md): an anonymous GET/HEAD of a
 * stored page of the current content version is answered here, from the raw node:http request,
 * without Express, the access-log middleware, route matching, sessions or React Router; it writes
 * the access line and the metrics those would have, cheaply. Returns false when the request must go
 * on. server.js calls it from the server's 'request' listener; `createPageCacheFront` mounts it in
 * the Express app (test servers mount the app alone). `nonce`: the one the security-headers
 * middleware already set (and its headers with it); without it the hit path makes both.
 */
export function answerFromPageCache(
  cache: PageCache,
  trustProxy: () => boolean,
  req: IncomingMessage,
  res: ServerResponse,
  nonce?: string,
): boolean {
  if ((req.method !== "GET" && req.method !== "HEAD") || req.headers.cookie || lookedUp.has(req)) return false;
  const started = performance.now();
  const version = contentVersion();
  const target = version === undefined ? null : rawCacheTarget(req, trustProxy());
  // A guarded page is looked up by the page handler, after its value is read from the database.
  const page = target && !target.guarded && version !== undefined ? cache.get(target.key, version) : undefined;
  if (!page) {
    // Only a request that goes on is remembered (a hit is answered here and never comes back).
    lookedUp.add(req);
    return false;
  }
  const id = randomUUID();
  recordPageCacheLookup(true);
  let series: RequestSeries;
  if (nonce === undefined) {
    // server.js's listener, before any middleware: the whole answer from the page's hit plan.
    series = sendHit(req, res, page, id);
  } else {
    // Mounted after the security headers (test servers): they are set already, with this nonce.
    sendCached(req, res, page, nonce, ["X-Request-Id", id, "X-Cache", "HIT"]);
    countView(req, isHtmlPage(page), res.statusCode);
    series = requestSeries(req.method, page.route, res.statusCode);
  }
  const seconds = (performance.now() - started) / 1000;
  observeRequest(series, seconds);
  // The line pino-http writes for every other request (server/app.ts), without its per-request setup.
  if (logger.isLevelEnabled("info")) {
    const path = (req.url ?? "/").split("?")[0];
    logger.info(
      { req: { id, method: req.method, path }, res: { status: res.statusCode }, responseTime: Math.round(seconds * 1000) },
      "request",
    );
  }
  return true;
}

/**
 * What a hit on one stored page sends but its nonce and request id, made once per page (and again
 * when the security headers' template is replaced): the whole header list for each encoding the
 * page goes out in and for a 304, in the order sendCached writes them, so a hit copies one list and
 * fills its slots rather than assembling ~25 fields, and keeps its metrics counters at hand.
 */
interface HitPlan {
  template: HeaderTemplate;
  html: boolean;
  /** By encoding ("" for none): the fields of a 200 and the body length they were made for. */
  sends: Map<string, { fields: string[]; length: number }>;
  /** The fields of a 304 (no Content-Security-Policy, no Content-Type: see sendCached). */
  notModified: string[];
  /** Where the request id goes in a 200's list, and in the 304's. */
  idAt: number;
  notModifiedIdAt: number;
  /** Counters by method and status: GET 200, GET 304, HEAD 200, HEAD 304. */
  series: (RequestSeries | undefined)[];
}
const hitPlans = new WeakMap<CachedPage, HitPlan>();

function hitPlanOf(page: CachedPage): HitPlan {
  const template = securityHeaderTemplate();
  let plan = hitPlans.get(page);
  if (plan?.template !== template) {
    const leading = [...template.fields, "X-Request-Id", "", "X-Cache", "HIT"];
    const notModified = withoutFields([...leading, ...fieldsOf(page)], NOT_ON_304);
    plan = {
      template,
      html: isHtmlPage(page),
      sends: new Map(),
      notModified,
      idAt: template.fields.length + 1,
      notModifiedIdAt: notModified.indexOf("X-Request-Id") + 1,
      series: [],
    };
    hitPlans.set(page, plan);
  }
  return plan;
}

/**
 * A hit answered from its plan (the hit path before Express): the same fields, in the same order, as
 * the security headers followed by sendCached; counts the view; returns the request's counters.
 */
function sendHit(req: IncomingMessage, res: ServerResponse, page: CachedPage, id: string): RequestSeries {
  const plan = hitPlanOf(page);
  const method = req.method === "HEAD" ? "HEAD" : "GET";
  const ifNoneMatch = req.headers["if-none-match"];
  let status = page.status;
  if (ifNoneMatch && matchesEtag(ifNoneMatch, page.etag)) {
    status = 304;
    const fields = plan.notModified.slice();
    fields[plan.notModifiedIdAt] = id;
    res.writeHead(304, fields);
    res.end();
  } else {
    const nonce = createNonce();
    const { pieces, length, encoding } = encodePieces(page, nonce, encodingsAccepted(req.headers["accept-encoding"]));
    let send = plan.sends.get(encoding ?? "");
    if (send?.length !== length) {
      const fields = [...plan.template.fields, "X-Request-Id", "", "X-Cache", "HIT", ...fieldsOf(page)];
      if (encoding) fields.push("Content-Encoding", encoding);
      fields.push("Content-Length", String(length));
      send = { fields, length };
      plan.sends.set(encoding ?? "", send);
    }
    const fields = send.fields.slice();
    for (const [index, parts] of plan.template.noncePieces) fields[index] = withNonce(parts, nonce);
    fields[plan.idAt] = id;
    res.writeHead(status, fields);
    if (method === "HEAD") res.end();
    else endWithPieces(res, pieces, length);
  }
  countView(req, plan.html, status);
  const slot = (method === "HEAD" ? 2 : 0) + (status === 304 ? 1 : 0);
  return (plan.series[slot] ??= requestSeries(method, page.route, status));
}

/** More pieces than this (a page with many nonces) are copied into one buffer rather than written one by one. */
const MAX_WRITTEN_PIECES = 16;

/**
 * Sends a body given in pieces: node corks the socket at the first write and end() uncorks it, so
 * headers and pieces leave in one writev, without the copy of the page that joining them costs.
 */
function endWithPieces(res: ServerResponse, pieces: Buffer[], length: number): void {
  if (pieces.length > MAX_WRITTEN_PIECES) {
    res.end(Buffer.concat(pieces, length));
    return;
  }
  const last = pieces.length - 1;
  for (let i = 0; i < last; i++) res.write(pieces[i]);
  res.end(pieces[last]);
}

/** A flat [name, value, …] list without the fields named in `names` (lower case). */
function withoutFields(fields: string[], names: Set<string>): string[] {
  const kept: string[] = [];
  for (let i = 0; i < fields.length; i += 2) {
    const name = fields[i] ?? "";
    if (!names.has(name.toLowerCase())) kept.push(name, fields[i + 1] ?? "");
  }
  return kept;
}

/** The hit path as Express middleware, after the security headers (which made this response's nonce). */
export function createPageCacheFront(cache: PageCache, trustProxy: () => boolean): RequestHandler {
  return (req, res, next) => {
    if (!answerFromPageCache(cache, trustProxy, req, res, responseNonce(res))) next();
  };
}

/**
 * Handed a function, React Router loads the build and derives its route tables from it on every
 * request (so development picks up edits): a tenth of a signed-in page's CPU. Outside development
 * the build never changes, so it is loaded once and handed over as it is.
 */
function requestHandlerFor(build: PageHandlerOptions["build"]): Promise<Handle> {
  const mode = process.env.NODE_ENV;
  if (mode === "development") return Promise.resolve(withUnavailable(createRequestHandler(build, mode)));
  return build().then((loaded) => withUnavailable(createRequestHandler(loaded, mode)));
}

/** A request that failed because a part is away (the database) is answered 503 with Retry-After, not 500. */
function withUnavailable(handle: Handle): Handle {
  return async (request, context) => answerUnavailable(request, await handle(request, context));
}

export function createPageHandler(options: PageHandlerOptions): RequestHandler {
  let ready: Promise<Handle> | undefined;
  // Rendered requests start one per event-loop turn, in arrival order (see turn-queue.ts).
  const nextTurn = createTurnQueue();
  const handler = async (req: Request, res: Response): Promise<void> => {
    await nextTurn();
    ready ??= requestHandlerFor(options.build).catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    const handle = await ready;
    const url = requestUrl(req, req.protocol, req.app.enabled("trust proxy"));
    const version = contentVersion();
    const target = version === undefined ? null : cacheTarget(req.method, req.headers.cookie, url);
    const key = target && (await guardedKey(target, options.guard));
    if (target && key !== null && version !== undefined) {
      const { url: cacheUrl, guarded } = target;
      const cache = guarded ? (options.guardedCache ?? options.cache) : options.cache;
      const nonce = responseNonce(res);
      const hit = cache.get(key, version);
      recordPageCacheLookup(hit !== undefined);
      if (hit) {
        res.setHeader("X-Cache", "HIT");
        sendCached(req, res, hit, nonce ?? createNonce());
        return countView(req, !guarded && isHtmlPage(hit), res.statusCode);
      }
      const render = handle;
      const context = options.getLoadContext?.(req, res);
      const route = routeLabel(res);
      // A page to be shared is rendered with the placeholder; each response gets its own nonce.
      const shared = () => toFetchRequest(req, res, cacheUrl, { method: "GET", shared: true });
      let rendered = await cache.fill(key, version, () => renderForCache(render, shared(), context, route, guarded));
      if (rendered.page) {
        res.setHeader("X-Cache", rendered.own ? "MISS" : "HIT");
        sendCached(req, res, rendered.page, nonce ?? createNonce());
        return countView(req, !guarded && isHtmlPage(rendered.page), res.statusCode);
      }
      if (!rendered.own) rendered = { ...(await renderForCache(render, shared(), context, route, guarded)), own: true };
      res.setHeader("X-Cache", "BYPASS");
      return sendBuffered(req, res, rendered, nonce);
    }
    const response = await handle(toFetchRequest(req, res, url), options.getLoadContext?.(req, res));
    if (req.method !== "GET" && req.method !== "HEAD") {
      // The write has committed: read the version it made before answering, so the page the writer
      // is redirected to (or reloads) is rendered anew, never served from the cache stale.
      await refreshContentVersion().catch((error: unknown) => {
        if (version !== undefined) logger.warn({ err: error }, "page cache: content version re-read after a write failed");
      });
    }
    if (req.headers.cookie && !response.headers.has("Cache-Control")) res.setHeader("Cache-Control", PRIVATE_CACHE_CONTROL);
    // A public page rendered for a visitor with a cookie but no session (a notice, the sidebar state);
    // views of the slot page (guarded) are not counted, as before it was cached.
    if (req.method === "GET" && cacheableUrl("GET", url, undefined) && !isGuardedPath(url.pathname)) {
      countView(req, response.headers.get("content-type")?.startsWith("text/html") === true, response.status);
    }
    await sendResponse(res, response, url.protocol === "https:" || isSecureRequest());
  };
  return (req: Request, res: Response, next: NextFunction) => {
    handler(req, res).catch((error: unknown) => {
      // The visitor went away mid-response (a closed tab, a cancelled navigation): nothing to
      // answer and nothing wrong here, so one line without a stack rather than an error report.
      if (res.headersSent && (res.destroyed || req.destroyed)) {
        logger.info({ path: req.path }, "client closed the connection before the response was complete");
        return;
      }
      next(error);
    });
  };
}
