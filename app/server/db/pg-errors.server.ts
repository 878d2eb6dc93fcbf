/** Whether a database error (or one it wraps, as drizzle's query errors do) carries this SQLSTATE. */
export function hasPgErrorCode(error: unknown, code: string): boolean {
  for (let e: unknown = error; e && typeof e === "object"; e = "cause" in e ? e.cause : undefined) {
    if ("code" in e && e.code === code) return true;
  }
  return false;
}

export const UNIQUE_VIOLATION = "23505";
export const EXCLUSION_VIOLATION = "23P01";
