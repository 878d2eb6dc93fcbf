import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import type { RequestHandler } from "express";
import helmet from "helmet";
import { lastKnownSiteSettings } from "~/features/settings/settings.server";
import { DEMO_SITE_SETTINGS } from "~/features/settings/site-defaults";
import type { Env } from "~/server/env.server";
import { getEnv } from "~/server/env.server";
import { logger } from "~/server/logger.server";
import { webOriginOf } from "~/lib/web-origin";
import { createNonce, NONCE_HEADER, NONCE_PLACEHOLDER } from "~/server/nonce.server";

/** Players the post media embeds (app/features/media/media.ts) and the Turnstile widget, by origin. */
const VIDEO_PLAYERS = ["https://www.youtube.com", "https://www.youtube-nocookie.com", "https://player.vimeo.com"];
const TURNSTILE = "https://challenges.cloudflare.com";

/**
 * Browser features no page uses. Camera and microphone stay off even in embeds; the players' own
 * features (fullscreen, picture-in-picture, encrypted media) and WebAuthn keep their defaults.
 */
export const PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), usb=(), browsing-topics=()";

/**
 * The Content-Security-Policy (docs/decisions/0024-security-headers.md). Scripts run
 * only from this origin or with this response's nonce; frames only for what pages embed.
 *
 * Styles allow 'unsafe-inline': Radix and our components set style attributes, and the ALTCHA widget and
 * the toaster insert <style> elements without a nonce. A style cannot run script; Markdown output is
 * sanitized, so content cannot carry style attributes either.
 */
type Source = string | ((req: IncomingMessage) => string);

/** This response's nonce as a source: helmet computes it per response. */
const nonceSource: Source = (req) => `'nonce-${String(req.headers[NONCE_HEADER] ?? "")}'`;

/**
 * `fromSettings: false` gives the strict policy that never depends on what is stored: the fallback when
 * the policy with the settings cannot be built.
 */
export function cspDirectives(env: Env, { fromSettings = true } = {}): Record<string, Source[]> {
  const turnstile = env.TURNSTILE_SITE_KEY ? [TURNSTILE] : [];
  // The scheduling widget's address is a site setting: read per response from the settings last loaded.
  const scheduling: Source = () => (fromSettings && webOriginOf((lastKnownSiteSettings() ?? DEMO_SITE_SETTINGS).schedulingUrl)) || "'self'";
  const directives: Record<string, Source[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", nonceSource, ...turnstile],
    "script-src-attr": ["'none'"],
    "style-src": ["'self'", "'unsafe-inline'"],
    // Feed items (Substack, TSP) and media items show images from other https sites.
    "img-src": ["'self'", "data:", "blob:", "https:"],
    "media-src": ["'self'", "https:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'", ...turnstile],
    // The ALTCHA widget solves its proof of work in a worker made from a blob.
    "worker-src": ["'self'", "blob:"],
    "frame-src": [...VIDEO_PLAYERS, scheduling, ...turnstile],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'self'"],
    "manifest-src": ["'self'"],
  };
  if (env.publicUrl.startsWith("https://")) directives["upgrade-insecure-requests"] = [];
  return directives;
}

/**
 * Every security header, for every response, from this one place: server.js runs it before the
 * static files and server/app.ts runs it first (test servers mount the app alone); the second run
 * sees the nonce already assigned and does nothing. The nonce reaches the renderer as NONCE_HEADER.
 */
export const securityHeaders: RequestHandler = (req, res, next) => {
  if (typeof res.locals.cspNonce === "string") return next();
  const nonce = createNonce();
  res.locals.cspNonce = nonce;
  req.headers[NONCE_HEADER] = nonce;
  const fields = securityHeaderFields(nonce);
  for (let i = 0; i < fields.length; i += 2) res.setHeader(fields[i] ?? "", fields[i + 1] ?? "");
  next();
};

/**
 * The security headers with `nonce` in place, as a flat [name, value, …] list (the form
 * `res.writeHead` takes): the page-cache hit path (page-handler.ts) writes them without the
 * middleware. Only the values that hold the placeholder are rebuilt per response.
 */
export function securityHeaderFields(nonce: string): string[] {
  const { fields, noncePieces } = securityHeaderTemplate();
  const out = fields.slice();
  for (const [index, pieces] of noncePieces) out[index] = withNonce(pieces, nonce);
  return out;
}

/** A header value cut at its nonce placeholders (HeaderTemplate's noncePieces), with `nonce` in place. */
export function withNonce(pieces: string[], nonce: string): string {
  return pieces.length === 2 ? `${pieces[0] ?? ""}${nonce}${pieces[1] ?? ""}` : pieces.join(nonce);
}

/**
 * The headers helmet writes, computed once (and again when the site settings the policy reads are
 * replaced), with the nonce placeholder where each response's nonce goes: running helmet's dozen
 * middlewares and building the policy string per response was a large part of a page-cache hit.
 */
export interface HeaderTemplate {
  settings: unknown;
  /** name, value, name, value, … */
  fields: string[];
  /** The values that hold the nonce: their index in `fields` and their text around each placeholder. */
  noncePieces: [number, string[]][];
}
let template: HeaderTemplate | undefined;
// Built on the first request: the configuration is read once, after start-up has loaded it.
let helmetMiddlewares: { withSettings: ReturnType<typeof helmet>; strict: ReturnType<typeof helmet> } | undefined;

/**
 * A policy that cannot be built (helmet refuses a source it would have to write) never means a response
 * without headers: the strict policy, which reads no setting, is used instead and the failure logged.
 * The same object until the site settings the policy reads are replaced: the page-cache hit path
 * builds its header lists around it once per stored page (page-handler.ts).
 */
export function securityHeaderTemplate(): HeaderTemplate {
  const settings = lastKnownSiteSettings();
  if (template && template.settings === settings) return template;
  helmetMiddlewares ??= { withSettings: helmetFor(getEnv(), true), strict: helmetFor(getEnv(), false) };
  let fields: string[];
  try {
    fields = headersFrom(helmetMiddlewares.withSettings);
  } catch (error) {
    logger.error({ err: error }, "security headers: the policy from the site settings could not be built; serving the strict default");
    fields = headersFrom(helmetMiddlewares.strict);
  }
  const noncePieces = fields.flatMap((value, index): [number, string[]][] =>
    index % 2 === 1 && value.includes(NONCE_PLACEHOLDER) ? [[index, value.split(NONCE_PLACEHOLDER)]] : [],
  );
  template = { settings, fields, noncePieces };
  return template;
}

/** The headers one helmet instance writes, as a flat list; throws when it does not write them all. */
function headersFrom(helmetMiddleware: ReturnType<typeof helmet>): string[] {
  const req = new IncomingMessage(new Socket());
  req.headers[NONCE_HEADER] = NONCE_PLACEHOLDER;
  const res = new ServerResponse(req);
  res.setHeader("Permissions-Policy", PERMISSIONS_POLICY);
  let done = false;
  let failure: unknown;
  // helmet passes a policy it cannot write to next() and stops: the headers after it would be missing too.
  helmetMiddleware(req, res, (error?: unknown) => {
    done = true;
    failure = error;
  });
  // helmet's middlewares are synchronous; if that ever changed, the policy would be missing.
  if (!done) throw new Error("helmet did not finish synchronously");
  if (failure !== undefined) throw failure;
  const headers = Object.entries(res.getHeaders()).flatMap(([name, value]): [string, string][] =>
    value === undefined ? [] : [[name, Array.isArray(value) ? value.join(", ") : String(value)]],
  );
  return headers.flat();
}

function helmetFor(env: Env, fromSettings: boolean) {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(env, { fromSettings }) },
    // Embeds (videos, scheduling, Turnstile) need no isolation from us, and they would break under it.
    crossOriginEmbedderPolicy: false,
    // Feed readers and other sites show our images (RSS, share cards): resources stay loadable.
    crossOriginResourcePolicy: false,
    crossOriginOpenerPolicy: { policy: "same-origin" },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    strictTransportSecurity: env.publicUrl.startsWith("https://") ? { maxAge: 63_072_000, includeSubDomains: false } : false,
    xFrameOptions: { action: "sameorigin" },
  });
}
