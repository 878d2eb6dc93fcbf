import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "react-router";
import { currentContentVersion, refreshContentVersion } from "~/server/content-version.server";
import { logger } from "~/server/logger.server";
import { createNonce, NONCE_HEADER, NONCE_PLACEHOLDER, stampNonce } from "~/server/nonce.server";
import {
  cacheableUrl,
  createCachedPage,
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
  getLoadContext?: (req: Request, res: Response) => AppLoadContext;
}

/** The request's URL as the adapter of @react-router/express builds it (host from the proxy when trusted). */
function requestUrl(req: Request): URL {
  const forwarded = req.app.enabled("trust proxy") ? req.get("X-Forwarded-Host")?.split(",")[0]?.trim() : undefined;
  const host = forwarded || req.get("host") || "localhost";
  try {
    return new URL(`${req.protocol}://${host}${req.originalUrl}`);
  } catch {
    return new URL(`${req.protocol}://localhost${req.originalUrl}`);
  }
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
  let body = page.body;
  if (page.hasNonce) {
    body = Buffer.from(stampNonce(page.body.toString("utf8"), nonce ?? createNonce()));
  } else {
    const encoding = req.acceptsEncodings("br", "gzip", "identity");
    const encoded = encoding === "br" ? page.br : encoding === "gzip" ? page.gzip : null;
    if (encoded && typeof encoding === "string") {
      body = encoded;
      res.setHeader("Content-Encoding", encoding);
    }
  }
  res.setHeader("Content-Length", body.length);
  res.end(req.method === "HEAD" ? undefined : body);
}

type Handle = (request: globalThis.Request, context?: AppLoadContext) => Promise<globalThis.Response>;

async function renderForCache(handle: Handle, request: globalThis.Request, context: AppLoadContext | undefined): Promise<RenderedPage> {
  const response = await handle(request, context);
  const body = Buffer.from(await response.arrayBuffer());
  const page = isStorable(response.status, response.headers) ? await createCachedPage(response.status, response.headers, body) : null;
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

export function createPageHandler(options: PageHandlerOptions): RequestHandler {
  let handle: Handle | undefined;
  const handler = async (req: Request, res: Response): Promise<void> => {
    handle ??= createRequestHandler(options.build, process.env.NODE_ENV);
    const url = requestUrl(req);
    const version = contentVersion();
    const cacheUrl = version === undefined ? null : cacheableUrl(req.method, url, req.headers.cookie);
    if (cacheUrl && version !== undefined) {
      const nonce: unknown = res.locals.cspNonce;
      const responseNonce = typeof nonce === "string" ? nonce : undefined;
      const key = `${cacheUrl.host}${cacheUrl.pathname}${cacheUrl.search}`;
      const hit = options.cache.get(key, version);
      if (hit) {
        res.setHeader("X-Cache", "HIT");
        return sendCached(req, res, hit, responseNonce);
      }
      const render = handle;
      const context = options.getLoadContext?.(req, res);
      // A page to be shared is rendered with the placeholder; each response gets its own nonce.
      const shared = () => toFetchRequest(req, res, cacheUrl, { method: "GET", shared: true });
      let rendered = await options.cache.fill(key, version, () => renderForCache(render, shared(), context));
      if (rendered.page) {
        res.setHeader("X-Cache", rendered.own ? "MISS" : "HIT");
        return sendCached(req, res, rendered.page, responseNonce);
      }
      if (!rendered.own) rendered = { ...(await renderForCache(render, shared(), context)), own: true };
      res.setHeader("X-Cache", "BYPASS");
      return sendBuffered(req, res, rendered, responseNonce);
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
    handler(req, res).catch(next);
  };
}
