import { randomBytes, randomFillSync } from "node:crypto";

/**
 * The request header through which server/app.ts hands the response's CSP nonce to the renderer
 * (app/entry.server.tsx). It is overwritten on every request, so a value sent by a client never counts.
 */
export const NONCE_HEADER = "x-app-csp-nonce";

/**
 * Rendered in place of the nonce when a page is rendered once and served many times (the page cache):
 * each serve stamps a fresh nonce with `stampNonce`. Random per process, so no text in a post can
 * know it in advance (and Markdown is sanitized, so it could not carry a script attribute anyway).
 */
export const NONCE_PLACEHOLDER = `__csp_nonce_${randomBytes(12).toString("hex")}__`;

const NONCE_BYTES = 16;
/**
 * Random bytes drawn from the system 256 nonces at a time: one call into the CSPRNG per response was
 * a visible share of a page-cache hit. Each nonce takes its own bytes; none is ever handed out twice.
 */
const pool = Buffer.alloc(NONCE_BYTES * 256);
let poolOffset = pool.length;

/** A fresh nonce for one response: 128 random bits, base64 (the CSP nonce-source grammar). */
export function createNonce(): string {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const nonce = pool.toString("base64", poolOffset, poolOffset + NONCE_BYTES);
  poolOffset += NONCE_BYTES;
  return nonce;
}

/** Replaces every placeholder in a rendered page with this response's nonce. */
export function stampNonce(body: string, nonce: string): string {
  return body.replaceAll(NONCE_PLACEHOLDER, nonce);
}

/** The nonce server/app.ts assigned to this request ("" outside the server, e.g. in unit tests). */
export function requestNonce(request: Request): string {
  return request.headers.get(NONCE_HEADER) ?? "";
}
