import { createHash, randomBytes } from "node:crypto";

/**
 * The one home of the secrets a link or a cookie carries (sessions, second-factor challenges, password
 * resets, email changes, commenters' confirmations): 32 random bytes, and only their hash is stored,
 * so a database leak hands out nothing that still works.
 */
export function newSecretToken(): string {
  return randomBytes(32).toString("base64url");
}

/** What the database keeps of a secret token: its SHA-256, base64url. */
export function hashSecretToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}
