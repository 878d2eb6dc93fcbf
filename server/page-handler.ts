import { randomUUID } from "node:crypto";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { createRequestHandler, type RouterContextProvider, type ServerBuild } from "react-router";
import { currentContentVersion, refreshContentVersion } from "~/server/content-version.server";
import { logger } from "~/server/logger.server";
import { recordPageCacheLookup, recordRequest } from "~/server/metrics.server";
import { createNonce, NONCE_HEADER, NONCE_PLACEHOLDER, stampNonce } from "~/server/nonce.server";
import {
  cacheableUrl,
  createCachedPage,
  encodePage,
  isStorable,
  matchesEtag,
  PageCache,
  PRIVATE_CACHE_CONTROL,
  PUBLIC_CACHE_CONTROL,
  type CachedPage,
  type RenderedPage,
} from "~/server/page-cache.server";

/**
 * React Router's request handler for Express (in place of @react-router/express), with the page
 * cache in front of it (docs/decisions/14a-page-cache.md): anonymous GET/HEAD of public pages are
 * answered from memory, per content version; a write answers only once this instance has read the
 * version it produced, so the writer never sees its own page stale.
 */
export interface PageHandlerOptions {
  build: () => Promise<ServerBuild>;
  cache: PageCache;
  getLoadContext?: (req: Request, res: Response) => RouterContextProvider;
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

/** A cacheable request's normalized URL and its key in the cache (the scheme is not part of it). */
function cacheTarget(req: Request, url: URL): { url: URL; key: string } | null {
  const cacheUrl = cacheableUrl(req.method, url, req.headers.cookie);
  return cacheUrl && { url: cacheUrl, key: `${cacheUrl.host}${cacheUrl.pathname}${cacheUrl.search}` };
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
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = requestHeaders(req);
  if (shared) headers.set(NONCE_HEADER, NONCE_PLACEHOLDER);
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal: controller.signal };
  if (method !== "GET" && method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(url.href, init);
}

async function sendResponse(res: Response, response: globalThis.Response): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) res.append(name, value);
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

/** A stored page: 304 when the client has it, else the best precompressed form it accepts. */
function sendCached(req: Request, res: Response, page: CachedPage, nonce: string | undefined): void {
  res.status(page.status);
  for (const [name, value] of page.headers) res.setHeader(name, value);
  res.setHeader("ETag", page.etag);
  res.setHeader("Cache-Control", PUBLIC_CACHE_CONTROL);
  res.setHeader("Vary", "Accept-Encoding");
  if (matchesEtag(req.get("If-None-Match"), page.etag)) {
    // The browser keeps the body it has, with that body's nonce: a policy with a new nonce would
    // block its scripts, and a 304 without the header leaves the stored one in force (RFC 9111 §4.3.4).
    res.removeHeader("Content-Security-Policy");
    res.removeHeader("Content-Type");
    res.status(304).end();
    return;
  }
  const body = encodePage(page, nonce ?? createNonce(), (...encodings) => req.acceptsEncodings(...encodings));
  if (body.encoding) res.setHeader("Content-Encoding", body.encoding);
  res.setHeader("Content-Length", body.length);
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  // The stored pieces and the nonce go out as they are, in one write (no copy into one buffer).
  res.cork();
  for (const chunk of body.chunks) res.write(chunk);
  res.end();
}

type Handle = (request: globalThis.Request, context?: RouterContextProvider) => Promise<globalThis.Response>;

async function renderForCache(
  handle: Handle,
  request: globalThis.Request,
  context: RouterContextProvider | undefined,
  route: string,
): Promise<RenderedPage> {
  const response = await handle(request, context);
  const body = Buffer.from(await response.arrayBuffer());
  const page = isStorable(response.status, response.headers)
    ? await createCachedPage(response.status, response.headers, body, route)
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

/** Set once a request has been looked up in the cache by the front handler (server.js and app.ts both mount it). */
const LOOKED_UP = "pageCacheLookedUp";

/**
 * The page cache's hit path, mounted before everything else but the security headers (which make
 * the response's nonce): an anonymous GET/HEAD of a stored page is answered here, without the
 * access-log middleware, route matching, body checks, sessions or React Router. It writes the
 * access line and the metrics those would have, cheaply. Anything else goes on (`next`).
 */
export function createPageCacheFront(cache: PageCache, trustProxy: () => boolean): RequestHandler {
  return (req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || req.headers.cookie || res.locals[LOOKED_UP] === true) return next();
    res.locals[LOOKED_UP] = true;
    const started = process.hrtime.bigint();
    const version = contentVersion();
    const target = version === undefined ? null : cacheTarget(req, requestUrl(req, "http", trustProxy()));
    const page = target && version !== undefined ? cache.get(target.key, version) : undefined;
    if (!page) return next();
    const id = randomUUID();
    res.setHeader("X-Request-Id", id);
    res.setHeader("X-Cache", "HIT");
    recordPageCacheLookup(true);
    sendCached(req, res, page, responseNonce(res));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    recordRequest(req.method, page.route, res.statusCode, seconds);
    // The line pino-http writes for every other request (server/app.ts), without its per-request setup.
    if (logger.isLevelEnabled("info")) {
      logger.info(
        { req: { id, method: req.method, path: req.path }, res: { status: res.statusCode }, responseTime: Math.round(seconds * 1000) },
        "request",
      );
    }
  };
}

export function createPageHandler(options: PageHandlerOptions): RequestHandler {
  let handle: Handle | undefined;
  const handler = async (req: Request, res: Response): Promise<void> => {
    handle ??= createRequestHandler(options.build, process.env.NODE_ENV);
    const url = requestUrl(req, req.protocol, req.app.enabled("trust proxy"));
    const version = contentVersion();
    const target = version === undefined ? null : cacheTarget(req, url);
    if (target && version !== undefined) {
      const { key, url: cacheUrl } = target;
      const nonce = responseNonce(res);
      const hit = options.cache.get(key, version);
      recordPageCacheLookup(hit !== undefined);
      if (hit) {
        res.setHeader("X-Cache", "HIT");
        return sendCached(req, res, hit, nonce);
      }
      const render = handle;
      const context = options.getLoadContext?.(req, res);
      const route = routeLabel(res);
      // A page to be shared is rendered with the placeholder; each response gets its own nonce.
      const shared = () => toFetchRequest(req, res, cacheUrl, { method: "GET", shared: true });
      let rendered = await options.cache.fill(key, version, () => renderForCache(render, shared(), context, route));
      if (rendered.page) {
        res.setHeader("X-Cache", rendered.own ? "MISS" : "HIT");
        return sendCached(req, res, rendered.page, nonce);
      }
      if (!rendered.own) rendered = { ...(await renderForCache(render, shared(), context, route)), own: true };
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
    await sendResponse(res, response);
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
