import { randomBytes } from "node:crypto";

/**
 * The CSP nonce's interface, shared by the security headers and the page cache: a page is rendered
 * with NONCE_PLACEHOLDER when it may be cached, and every response gets a fresh nonce stamped into
 * its (possibly cached) body. The placeholder is random per process, so text in a post cannot guess
 * it and have a real nonce stamped into it.
 */
export const NONCE_PLACEHOLDER = `nonce-${randomBytes(18).toString("base64url")}`;

/** A fresh nonce for one response (128 bits, base64). */
export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

/** The body with every placeholder replaced by this response's nonce. */
export function stampNonce(body: string, nonce: string): string {
  return body.replaceAll(NONCE_PLACEHOLDER, nonce);
}
