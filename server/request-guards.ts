import type { ErrorRequestHandler, Express, NextFunction, Request, RequestHandler, Response } from "express";
import { lastKnownSiteSettings, getSiteSettings } from "~/features/settings/settings.server";
import { isEarlierFediverseHost } from "~/features/fediverse/fediverse.server";
import { hostNameOf, isSiteHost, siteUrlOf } from "~/features/settings/site-url.server";
import { getDb } from "~/server/db/client.server";
import { getEnv } from "~/server/env.server";
import { errorAnswer } from "~/server/errors.server";
import { formatBytes, LIMITS } from "~/server/limits.server";
import { CLIENT_IP_HEADER } from "~/server/request.server";
import { getRouteTable, targetRoute } from "./route-table";

// What every request goes through before a route sees it: its client address, the cross-site
// refusal, the raw-HTTP checks, and the last-resort error answer.

/** The client address, once per request. TRUST_PROXY is read on the first request: the configuration is loaded by then (test servers set it just before). */
export function clientAddress(app: Express): RequestHandler {
  let trustConfigured = false;
  return (req, _res, next) => {
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
  };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

// CSRF defence in depth (cookies are also SameSite=Lax): a state-changing request sent by a browser
// from another site is refused. Non-browser clients send neither header and carry no cookie.
export const refuseCrossSite: RequestHandler = (req, res, next) => {
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
};

/** The host a request names: the proxy's first X-Forwarded-Host with TRUST_PROXY, else Host (as the page handler reads it). */
function requestHost(req: Request): string | undefined {
  const forwarded = getEnv().TRUST_PROXY === false ? undefined : req.get("x-forwarded-host")?.split(",")[0]?.trim();
  return forwarded || req.get("host");
}

/**
 * A request for a host name that is not the site's (nor a loopback name) is answered 421 Misdirected
 * Request, before anything is rendered or cached for it (docs/decisions/0073-configured-hosts.md).
 * While the settings cannot be read (the database away) the last ones read decide; before any read,
 * the request goes on and meets the same outage.
 */
/** What still answers at an earlier site address (docs/decisions/0087-fediverse-actor-move.md). */
const EARLIER_HOST_PATHS = new Set(["/ap/actor", "/ap/inbox", "/.well-known/webfinger"]);

export const refuseMisdirected: RequestHandler = async (req, res, next) => {
  const host = requestHost(req);
  // HTTP/1.0 without Host: Node reads it as this server itself.
  if (!host) return next();
  let settings;
  try {
    settings = await getSiteSettings();
  } catch {
    settings = lastKnownSiteSettings();
  }
  if (!settings || isSiteHost(host, settings)) return next();
  // A site that moved keeps its earlier fediverse actor answering there, so followers move over.
  if (EARLIER_HOST_PATHS.has(req.path) && (await isEarlierFediverseHost(getDb(), hostNameOf(host)).catch(() => false))) return next();
  refuse(
    req,
    res,
    421,
    `This site does not answer at the address you used. Its address is ${siteUrlOf(settings)}. If the address you used is the site's, set PUBLIC_URL (or the Site address in the admin's Settings) to it.`,
    { "Cache-Control": "no-store" },
  );
};

// ---- Robustness for raw HTTP (docs/decisions/0014-http-robustness.md): bad input gets a 4xx with a
// message a person can act on — JSON under /api — before it can reach a route and become a 500.

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];
/** The ActivityPub inbox takes activities, which are JSON, not forms. */
const ACTIVITY_PATHS = new Set(["/ap/inbox"]);
const ACTIVITY_TYPES = ["application/activity+json", "application/ld+json", "application/json"];
const PAGE_METHODS = new Set(["GET", "HEAD", "POST"]);
const READ_ONLY_MESSAGE = "Method not allowed. This address only answers GET requests.";
const POST_ONLY_MESSAGE = "Method not allowed. This address only receives POST requests.";
const NO_ACTION_MESSAGE = "Method not allowed. This page does not accept that kind of request. Open it with a normal link instead.";

function refuse(req: Request, res: Response, status: number, error: string, headers: Record<string, string> = {}): void {
  res.set(headers);
  if (req.path.startsWith("/api/")) res.status(status).json({ error });
  else res.status(status).type("text/plain").send(error);
}

function hasBody(req: Request): boolean {
  return Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;
}

const UPLOAD_PATHS = new Set(["/api/uploads", "/api/uploads/resume"]);

export const refuseBadRequests: RequestHandler = async (req, res, next) => {
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
      if (!FORM_TYPES.includes(type) && !(ACTIVITY_PATHS.has(req.path) && ACTIVITY_TYPES.includes(type))) {
        return refuse(req, res, 415, "Forms must be sent as application/x-www-form-urlencoded or multipart/form-data.");
      }
    }
    // A POST to an address without an action: answered here, so no route needs a stub and React
    // Router's developer message never reaches the page. (Its own data requests, *.data, are left to
    // it: the root error boundary shows those.)
    if (req.method === "POST" && route && !route.action && !req.path.endsWith(".data")) {
      return refuse(req, res, 405, route.resource ? READ_ONLY_MESSAGE : NO_ACTION_MESSAGE, { Allow: "GET, HEAD" });
    }
    // An address that only receives posts (the Webmention endpoint, the ActivityPub inbox): reading it is refused here too.
    if ((req.method === "GET" || req.method === "HEAD") && route?.resource && route.action && !route.loader) {
      return refuse(req, res, 405, POST_ONLY_MESSAGE, { Allow: "POST" });
    }
    next();
  } catch (error) {
    next(error);
  }
};

// Last resort: an error that escaped a route (e.g. a broken request stream) answers without a stack.
export const lastResort: ErrorRequestHandler = (error: unknown, req: Request, res: Response, next: NextFunction) => {
  if (res.headersSent) return next(error);
  const status =
    typeof error === "object" &&
    error !== null &&
    "status" in error &&
    typeof error.status === "number" &&
    error.status >= 400 &&
    error.status < 500
      ? error.status
      : undefined;
  if (status !== undefined) return refuse(req, res, status, "The request could not be read.");
  // Anything else is answered as everywhere (errorAnswer logs it): a 500, or a 503 while the database is away.
  const answer = errorAnswer(error);
  refuse(req, res, answer.status, answer.message, answer.headers);
};
