import { and, desc, eq, gt, ne } from "drizzle-orm";
import type { SessionUser } from "~/features/auth/session.server";
import { canEdit } from "~/lib/permissions";
import { passwordProblem } from "~/lib/password-policy";
import { recordAudit } from "~/server/audit.server";
import { authorize } from "~/server/authorize.server";
import type { Db } from "~/server/db/client.server";
import { account, session } from "~/server/db/schema.server";
import { NotFoundError, parseOrThrow, ValidationError } from "~/server/errors.server";
import { hashPassword, verifyPassword } from "~/server/password.server";
import { enforceRateLimits } from "~/server/rate-limit.server";
import { describeUserAgent, passwordChangeSchema, sessionIdSchema } from "./account-schema";

/**
 * The signed-in staff member's own account (/admin/account). Every function takes the session user
 * and acts on that user only; the admin area (and so this page) is for staff (canEdit).
 */
export const ACCOUNT_FORBIDDEN = "You don't have permission to access the admin area.";
const WRONG_CURRENT = "Your current password is not correct.";

/** Every session of the actor but the one making this request. */
function endOtherSessions(tx: Db, actor: SessionUser) {
  return tx
    .delete(session)
    .where(and(eq(session.userId, actor.id), ne(session.id, actor.sessionId)))
    .returning({ id: session.id });
}

/** The actor's own password, or a 400 on the current-password field. The caller limits guesses. */
export async function checkCurrentPassword(db: Db, actor: SessionUser, password: string): Promise<void> {
  const [row] = await db
    .select({ hash: account.password })
    .from(account)
    .where(and(eq(account.userId, actor.id), eq(account.providerId, "credential")))
    .limit(1);
  if (!row?.hash || !(await verifyPassword(row.hash, password))) {
    throw new ValidationError(WRONG_CURRENT, { currentPassword: [WRONG_CURRENT] });
  }
}

export interface ActiveSession {
  id: string;
  browser: string;
  ip: string | null;
  lastSeenAt: Date;
  createdAt: Date;
  current: boolean;
}

export async function listOwnSessions(db: Db, actor: SessionUser | null): Promise<ActiveSession[]> {
  authorize(actor, canEdit, ACCOUNT_FORBIDDEN);
  const rows = await db
    .select({
      id: session.id,
      userAgent: session.userAgent,
      ip: session.ipAddress,
      lastSeenAt: session.lastSeenAt,
      createdAt: session.createdAt,
    })
    .from(session)
    .where(and(eq(session.userId, actor.id), gt(session.expiresAt, new Date())))
    .orderBy(desc(session.lastSeenAt));
  return rows
    .map((r) => ({
      id: r.id,
      browser: describeUserAgent(r.userAgent),
      ip: r.ip,
      lastSeenAt: r.lastSeenAt,
      createdAt: r.createdAt,
      current: r.id === actor.sessionId,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

/** Changes the password (the current one required) and signs out every other session. */
export async function changeOwnPassword(db: Db, actor: SessionUser | null, raw: unknown): Promise<void> {
  authorize(actor, canEdit, ACCOUNT_FORBIDDEN);
  const input = parseOrThrow(passwordChangeSchema, raw);
  // Guessing the current password through this form is as limited as through the sign-in form.
  await enforceRateLimits(db, [{ key: `account-password:${actor.id}`, limit: 5, windowSeconds: 15 * 60 }]);
  await checkCurrentPassword(db, actor, input.currentPassword);
  const problem = passwordProblem(input.newPassword, actor.email);
  if (problem) throw new ValidationError(problem, { newPassword: [problem] });
  const hash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    await tx
      .update(account)
      .set({ password: hash, updatedAt: new Date() })
      .where(and(eq(account.userId, actor.id), eq(account.providerId, "credential")));
    const ended = await endOtherSessions(tx, actor);
    await recordAudit(tx, {
      actor,
      action: "account.password.change",
      target: { type: "user", id: actor.id },
      summary: `${ended.length} other session(s) signed out`,
    });
  });
}

/** Signs out one of the actor's own sessions (not someone else's: that is a 404 like an unknown id). */
export async function revokeOwnSession(db: Db, actor: SessionUser | null, raw: unknown): Promise<{ current: boolean }> {
  authorize(actor, canEdit, ACCOUNT_FORBIDDEN);
  const { sessionId } = parseOrThrow(sessionIdSchema, raw);
  const ended = await db.transaction(async (tx) => {
    const rows = await tx
      .delete(session)
      .where(and(eq(session.id, sessionId), eq(session.userId, actor.id)))
      .returning({ id: session.id, userAgent: session.userAgent, ip: session.ipAddress });
    const [row] = rows;
    if (row) {
      await recordAudit(tx, {
        actor,
        action: "account.session.revoke",
        target: { type: "session", id: row.id },
        summary: `${describeUserAgent(row.userAgent)} (${row.ip ?? "unknown IP"})`,
      });
    }
    return row;
  });
  if (!ended) throw new NotFoundError("That session has already ended.");
  return { current: ended.id === actor.sessionId };
}

/** 'Sign out everywhere else': every session of the actor but this one. */
export async function revokeOtherSessions(db: Db, actor: SessionUser | null): Promise<number> {
  authorize(actor, canEdit, ACCOUNT_FORBIDDEN);
  return db.transaction(async (tx) => {
    const ended = await endOtherSessions(tx, actor);
    await recordAudit(tx, {
      actor,
      action: "account.session.revoke-others",
      target: { type: "user", id: actor.id },
      summary: `${ended.length} session(s) signed out`,
    });
    return ended.length;
  });
}
