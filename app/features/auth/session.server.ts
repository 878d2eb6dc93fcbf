import { randomUUID } from "node:crypto";
import { hashSecretToken, newSecretToken } from "~/server/secret-token.server";
import { serialize } from "cookie";
import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { roleFromStored, type Role } from "~/lib/roles";
import { canEdit } from "~/lib/permissions";
import { getDb, type Db } from "~/server/db/client.server";
import { isDatabaseUnavailable } from "~/server/db/pg-errors.server";
import { session, user, userRoles } from "~/server/db/schema.server";
import { logger } from "~/server/logger.server";
import { readCookie } from "~/server/cookies.server";
import { clientIp, isSecureRequest } from "~/server/request.server";
import { requestMemo } from "~/server/request-scope.server";

export const SESSION_COOKIE = "sid";
const SESSION_DAYS = 7;
const SESSION_MS = SESSION_DAYS * 86_400_000;

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  /** Areas granted to this moderator beyond the role (see canEnterArea). */
  grants: readonly string[];
  canEdit: boolean;
  sessionId: string;
  /** The request's client IP, so domain functions can record where an action came from (audit log). */
  ip: string;
}

/** last_seen_at is written at most this often per session. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

/** Secure when the site or the trusted proxy in front of it speaks https. */
export function sessionCookie(token: string, expires: Date, request?: Request): string {
  return serialize(SESSION_COOKIE, token, { path: "/", httpOnly: true, sameSite: "lax", expires, secure: isSecureRequest(request) });
}

export function clearSessionCookie(request?: Request): string {
  return serialize(SESSION_COOKIE, "", { path: "/", httpOnly: true, sameSite: "lax", maxAge: 0, secure: isSecureRequest(request) });
}

/** Starts a session for a user; returns the Set-Cookie header value. */
export async function createSession(db: Db, userId: string, request: Request): Promise<string> {
  const token = newSecretToken();
  const expiresAt = new Date(Date.now() + SESSION_MS);
  await db.insert(session).values({
    id: randomUUID(),
    token: hashSecretToken(token),
    userId,
    expiresAt,
    ipAddress: clientIp(request),
    userAgent: request.headers.get("user-agent")?.slice(0, 500) ?? null,
  });
  // Housekeeping: drop this user's expired sessions.
  await db.delete(session).where(and(eq(session.userId, userId), lt(session.expiresAt, new Date())));
  return sessionCookie(token, expiresAt, request);
}

/** Ends the request's session, if any; returns the Set-Cookie header that clears the cookie. */
export async function destroySession(request: Request, db: Db = getDb()): Promise<string> {
  const token = readCookie(request, SESSION_COOKIE);
  if (token) await db.delete(session).where(eq(session.token, hashSecretToken(token)));
  return clearSessionCookie(request);
}

/** Role from user_roles; a failed lookup is logged and means 'user' (SPEC §6). */
export async function lookupRole(db: Db, userId: string): Promise<Role> {
  try {
    const rows = await db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId));
    return roleFromStored(rows.map((r) => r.role));
  } catch (error) {
    // The database being away is not a role: the request fails as unavailable (503), never as a lesser user.
    if (isDatabaseUnavailable(error)) throw error;
    logger.error({ err: error, userId }, "role lookup failed; treating as user");
    return "user";
  }
}

/**
 * One lookup per page request: the root loader, the admin middleware, the layout's and the page's
 * loaders all ask for the same request's user. Only reads (GET/HEAD) share it: an action may sign
 * in, sign out or change a role, and the loaders after it get a request of their own.
 */
const lookups = requestMemo<{ db: Db; user: Promise<SessionUser | null> }>();

/** The signed-in user of a request, or null. Never throws for a bad or expired cookie. */
export function getSessionUser(request: Request, db: Db = getDb()): Promise<SessionUser | null> {
  if (request.method !== "GET" && request.method !== "HEAD") return lookUpSessionUser(request, db);
  const known = lookups(request, () => ({ db, user: lookUpSessionUser(request, db) }));
  return known.db === db ? known.user : lookUpSessionUser(request, db);
}

async function lookUpSessionUser(request: Request, db: Db): Promise<SessionUser | null> {
  const token = readCookie(request, SESSION_COOKIE);
  if (!token || token.length > 200) return null;
  try {
    // One statement for the session, its user and their roles: PGlite runs statements one at a time.
    const [row] = await db
      .select({
        sessionId: session.id,
        id: user.id,
        email: user.email,
        name: user.name,
        grants: user.grants,
        lastSeenAt: session.lastSeenAt,
        roles: sql<string[] | null>`(select array_agg(${userRoles.role}) from ${userRoles} where ${userRoles.userId} = ${user.id})`,
      })
      .from(session)
      .innerJoin(user, eq(user.id, session.userId))
      // A disabled user's sessions are deleted when they are disabled; this also covers a race with that.
      .where(and(eq(session.token, hashSecretToken(token)), gt(session.expiresAt, new Date()), isNull(user.disabledAt)))
      .limit(1);
    if (!row) return null;
    if (Date.now() - row.lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS) {
      await db.update(session).set({ lastSeenAt: new Date() }).where(eq(session.id, row.sessionId));
    }
    const role = roleFromStored(row.roles ?? []);
    return {
      id: row.id,
      email: row.email,
      name: row.name,
      role,
      grants: row.grants,
      canEdit: canEdit({ id: row.id, role }),
      sessionId: row.sessionId,
      ip: clientIp(request),
    };
  } catch (error) {
    // Nor is it "signed out": a signed-in user would be sent to the sign-in page (503 instead).
    if (isDatabaseUnavailable(error)) throw error;
    logger.error({ err: error }, "session check failed");
    return null;
  }
}
