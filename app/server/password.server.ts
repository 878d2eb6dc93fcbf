import { randomBytes } from "node:crypto";
import type * as Argon2 from "@node-rs/argon2";

// argon2id with OWASP's second recommended profile (19 MiB, 2 passes).
const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

let loaded: Promise<typeof Argon2> | undefined;
/** The native argon2 module, loaded with the first password checked or set (a page view needs none). */
function argon2(): Promise<typeof Argon2> {
  loaded ??= import("@node-rs/argon2");
  return loaded;
}

export async function hashPassword(password: string): Promise<string> {
  return (await argon2()).hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await (await argon2()).verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A password for someone who did not choose one: 16 random bytes (128 bits) as 22 URL-safe characters. */
export function generatePassword(): string {
  return randomBytes(16).toString("base64url");
}
