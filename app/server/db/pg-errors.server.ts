/** Whether a database error (or one it wraps, as drizzle's query errors do) carries this SQLSTATE. */
export function hasPgErrorCode(error: unknown, code: string): boolean {
  for (let e: unknown = error; e && typeof e === "object"; e = "cause" in e ? e.cause : undefined) {
    if ("code" in e && e.code === code) return true;
  }
  return false;
}

export const UNIQUE_VIOLATION = "23505";
export const EXCLUSION_VIOLATION = "23P01";
export const DEADLOCK_DETECTED = "40P01";

/**
 * Runs a write (a whole transaction) again when PostgreSQL broke a deadlock by aborting it, at most
 * `attempts` times in all. Two transactions inserting rows an exclusion constraint forbids together
 * can each wait for the other's check; PostgreSQL aborts one, and run again it meets the other's
 * committed row: the constraint's own violation, which the caller turns into its answer.
 */
export async function retryOnDeadlock<T>(write: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= attempts || !hasPgErrorCode(error, DEADLOCK_DETECTED)) throw error;
    }
  }
}

/**
 * SQLSTATEs of a database that is away or going away rather than of a statement it refused: class 08
 * (connection exception), the server shutting down or starting up (57P01-57P03), no free connection (53300).
 */
const UNAVAILABLE_CODES = new Set(["57P01", "57P02", "57P03", "53300"]);
/** Socket errors of a connection that could not be made or was cut. */
const UNAVAILABLE_ERRNOS = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH", "EAI_AGAIN"]);
/** node-postgres's own errors for the same (it gives them no code). */
const UNAVAILABLE_MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error and is not queryable",
  "Cannot use a pool after calling end on the pool",
];

/**
 * Whether an error (or one it wraps) says the database cannot be reached right now — not that a
 * statement was wrong: such a request may succeed if tried again in a little while.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 6; e = "cause" in e ? e.cause : undefined, depth++) {
    const code = "code" in e && typeof e.code === "string" ? e.code : undefined;
    if (code && (code.startsWith("08") || UNAVAILABLE_CODES.has(code) || UNAVAILABLE_ERRNOS.has(code))) return true;
    const message = "message" in e && typeof e.message === "string" ? e.message : "";
    if (UNAVAILABLE_MESSAGES.some((m) => message.startsWith(m))) return true;
    if (e instanceof AggregateError && e.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
  }
  return false;
}

/** A full disk: the operating system's ENOSPC / EDQUOT (a file write), or PostgreSQL's disk_full (53100). */
const DISK_FULL_CODES = new Set(["ENOSPC", "EDQUOT", "53100"]);

/**
 * Whether an error (or one it wraps) says there is no room left on a disk: a write that may succeed
 * once someone frees space, not a fault of the request.
 */
export function isDiskFull(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 6; e = "cause" in e ? e.cause : undefined, depth++) {
    if ("code" in e && typeof e.code === "string" && DISK_FULL_CODES.has(e.code)) return true;
  }
  return false;
}
