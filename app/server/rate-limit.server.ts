import { sql } from "drizzle-orm";
import type { Db } from "./db/client.server";
import { rateLimits } from "./db/schema.server";
import { RateLimitError } from "./errors.server";

export interface RateLimitRule {
  /** e.g. "login:ip:1.2.3.4" or "login:account:jane@example.com" */
  key: string;
  limit: number;
  windowSeconds: number;
}

export interface RateLimitState {
  allowed: boolean;
  /** Hits in the current window, this one included. */
  attempts: number;
  remaining: number;
  retryAfterSeconds: number;
}

/**
 * Counts one hit against a fixed window stored in the database, so limits hold across restarts and
 * across instances. One atomic upsert: a new or expired window starts at 1. Every time is the
 * database's: a window ending further ahead than its own length means the clock went back since it
 * began (on the embedded database the clock is this machine's), and it starts again rather than
 * locking the key out for as long as the clock jumped.
 */
export async function hitRateLimit(db: Db, rule: RateLimitRule): Promise<RateLimitState> {
  const windowEnd = sql`now() + make_interval(secs => ${rule.windowSeconds})`;
  const stale = sql`(${rateLimits.resetAt} <= now() or ${rateLimits.resetAt} > ${windowEnd})`;
  const result = await db
    .insert(rateLimits)
    .values({ key: rule.key, count: 1, resetAt: windowEnd })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${stale} then 1 else ${rateLimits.count} + 1 end`,
        resetAt: sql`case when ${stale} then ${windowEnd} else ${rateLimits.resetAt} end`,
      },
    })
    .returning({
      count: rateLimits.count,
      secondsLeft: sql<number>`extract(epoch from ${rateLimits.resetAt} - now())::float8`.mapWith(Number),
    });
  const row = result[0];
  if (!row) throw new Error("rate limit upsert returned no row");
  const retryAfterSeconds = Math.max(1, Math.ceil(row.secondsLeft));
  return { allowed: row.count <= rule.limit, attempts: row.count, remaining: Math.max(0, rule.limit - row.count), retryAfterSeconds };
}

/** Counts a hit on every rule; throws RateLimitError (429) when any is over its limit. */
export async function enforceRateLimits(db: Db, rules: RateLimitRule[], message?: string): Promise<void> {
  for (const rule of rules) {
    const state = await hitRateLimit(db, rule);
    if (!state.allowed) {
      const minutes = Math.ceil(state.retryAfterSeconds / 60);
      throw new RateLimitError(
        message ?? `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
        state.retryAfterSeconds,
      );
    }
  }
}

/** Clears a key, e.g. the per-account login counter after a successful sign-in. */
export async function resetRateLimit(db: Db, key: string): Promise<void> {
  await db.delete(rateLimits).where(sql`${rateLimits.key} = ${key}`);
}
