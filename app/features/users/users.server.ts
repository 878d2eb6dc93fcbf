import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import { z } from "zod";
import { accountEmailSchema } from "~/lib/email";
import { passwordProblem } from "~/lib/password-policy";
import { canManageUsers, GRANT_LABELS, GRANTABLE_AREAS, isGrantableArea, type Actor, type GrantableArea } from "~/lib/permissions";
import { roleFromStored, type Role, type StoredRole } from "~/lib/roles";
import { recordAudit, type AuditActor } from "~/server/audit.server";
import { authorize } from "~/server/authorize.server";
import type { Db } from "~/server/db/client.server";
import { account, session, user, userRoles } from "~/server/db/schema.server";
import { ConflictError, NotFoundError, parseOrThrow, ValidationError } from "~/server/errors.server";
import { defineMailKind } from "~/server/mail-outbox.server";
import { generatePassword, hashPassword } from "~/server/password.server";
import { createUserSchema, grantsSchema, roleChangeSchema, USER_MESSAGES, USERS_FORBIDDEN, userTargetSchema } from "./user-schema";

function parseEmail(input: string): string {
  const result = accountEmailSchema.safeParse(input);
  if (!result.success) throw new ValidationError(`Invalid email address: '${input}'`);
  return result.data;
}

function checkPassword(password: string, email: string) {
  const problem = passwordProblem(password, email);
  if (problem) throw new ValidationError(problem);
}

export interface UserSummary {
  id: string;
  email: string;
  name: string;
  role: Role;
  /** Areas granted beyond the role (a moderator's "Can also manage"). */
  grants: GrantableArea[];
  disabled: boolean;
  createdAt: Date;
}

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db
    .select({ id: user.id, email: user.email, name: user.name })
    .from(user)
    .where(eq(user.email, parseEmail(email)))
    .limit(1);
  return row ?? null;
}

/** The user with this email, or a 404 naming the address. */
export async function requireUser(db: Db, email: string) {
  const found = await findUserByEmail(db, email);
  if (!found) throw new NotFoundError(`No user with email ${parseEmail(email)}`);
  return found;
}

// createUser, setPassword, grantRole and revokeRole take no actor: they are the operator's (the CLI
// at the server's shell, the first-run seed). The admin screen goes through addUser and
// changeUserRole, which take the actor and decide (docs/decisions/0004-permissions.md).

/** The notice to the old address after a sign-in email changed (so a takeover does not go unnoticed). */
export const emailChangedMail = defineMailKind("account.email-changed", {
  label: "Sign-in email changed",
  schema: z.object({ newEmail: z.string() }),
  async render({ newEmail }) {
    return {
      subject: "Your sign-in email was changed",
      text: [
        `The sign-in email of your account was changed to ${newEmail}. This address no longer signs in.`,
        "",
        "If you did not do this, contact the site owner at once.",
      ].join("\n"),
    };
  },
});

/** The refusal when the new sign-in email belongs to another account. */
export function emailTakenMessage(email: string): string {
  return `A user with email ${email} already exists`;
}

/**
 * THE rule of a sign-in email change, in the caller's transaction: the new address (already parsed)
 * must be free, the old one gets a notice through the outbox (`notify`), and the audit log says who
 * changed what. Sessions stay. Returns false when the address did not change.
 */
export async function changeSignInEmail(
  tx: Db,
  found: { id: string; email: string },
  email: string,
  audit: { actor: AuditActor | null; action: string; notify?: boolean },
): Promise<boolean> {
  if (email === found.email) return false;
  const [taken] = await tx.select({ id: user.id }).from(user).where(eq(user.email, email)).limit(1);
  if (taken) throw new ConflictError(emailTakenMessage(email));
  await tx.update(user).set({ email, updatedAt: new Date() }).where(eq(user.id, found.id));
  if (audit.notify ?? true) await emailChangedMail.enqueue(tx, { to: found.email, payload: { newEmail: email } });
  await recordAudit(tx, {
    actor: audit.actor,
    action: audit.action,
    target: { type: "user", id: found.id },
    summary: `${found.email} → ${email}`,
  });
  return true;
}

/**
 * Changes a user's sign-in email (the CLI's set-email: the operator at the server's shell). The new
 * address must be free; the old one gets a notice through the outbox; audited. Sessions stay.
 */
export async function setEmail(db: Db, oldInput: string, newInput: string, by: AuditActor | null = null): Promise<{ email: string }> {
  const found = await requireUser(db, oldInput);
  const email = parseEmail(newInput);
  await db.transaction((tx) => changeSignInEmail(tx, found, email, { actor: by, action: "user.email.set" }));
  return { email };
}

/** Creates a user who signs in with email and password (better-auth's 'credential' account). */
export async function createUser(
  db: Db,
  input: { email: string; password: string; name?: string; roles?: StoredRole[] },
  by: AuditActor | null = null,
): Promise<{ id: string; email: string }> {
  const email = parseEmail(input.email);
  checkPassword(input.password, email);
  if (await findUserByEmail(db, email)) throw new ConflictError(emailTakenMessage(email));
  const passwordHash = await hashPassword(input.password);
  const id = randomUUID();
  await db.transaction(async (tx) => {
    await tx.insert(user).values({ id, email, name: input.name?.trim() || email.split("@")[0] || email, emailVerified: true });
    await tx.insert(account).values({ id: randomUUID(), accountId: id, providerId: "credential", userId: id, password: passwordHash });
    for (const role of input.roles ?? []) {
      await tx.insert(userRoles).values({ userId: id, role }).onConflictDoNothing();
    }
    await recordAudit(tx, {
      actor: by,
      action: "user.create",
      target: { type: "user", id },
      summary: `${email} (${roleFromStored(input.roles ?? [])})`,
    });
  });
  return { id, email };
}

/** `by` null is the operator (CLI, reset link); the account page passes the signed-in user. */
export async function setPassword(
  db: Db,
  emailInput: string,
  password: string,
  by: AuditActor | null = null,
  action = "user.password.set",
): Promise<void> {
  const found = await requireUser(db, emailInput);
  checkPassword(password, found.email);
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(account)
      .set({ password: passwordHash, updatedAt: new Date() })
      .where(and(eq(account.userId, found.id), eq(account.providerId, "credential")))
      .returning({ id: account.id });
    if (updated.length === 0) {
      await tx
        .insert(account)
        .values({ id: randomUUID(), accountId: found.id, providerId: "credential", userId: found.id, password: passwordHash });
    }
    // A new password ends every existing session of that user.
    await tx.delete(session).where(eq(session.userId, found.id));
    await recordAudit(tx, { actor: by, action, target: { type: "user", id: found.id }, summary: found.email });
  });
}

export async function getStoredRoles(db: Db, userId: string): Promise<StoredRole[]> {
  const rows = await db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId));
  return rows.map((r) => r.role);
}

export async function listUsers(db: Db): Promise<UserSummary[]> {
  const rows = await db
    .select({
      id: user.id,
      email: user.email,
      name: user.name,
      grants: user.grants,
      disabledAt: user.disabledAt,
      createdAt: user.createdAt,
    })
    .from(user)
    .orderBy(asc(user.createdAt), asc(user.email));
  const roles = rows.length
    ? await db
        .select({ userId: userRoles.userId, role: userRoles.role })
        .from(userRoles)
        .where(
          inArray(
            userRoles.userId,
            rows.map((r) => r.id),
          ),
        )
    : [];
  return rows.map(({ disabledAt, grants, ...r }) => ({
    ...r,
    grants: grants.filter(isGrantableArea),
    disabled: disabledAt !== null,
    role: roleFromStored(roles.filter((x) => x.userId === r.id).map((x) => x.role)),
  }));
}

export async function grantRole(db: Db, emailInput: string, role: StoredRole, by: AuditActor | null = null): Promise<void> {
  const found = await requireUser(db, emailInput);
  await db.transaction(async (tx) => {
    await tx.insert(userRoles).values({ userId: found.id, role }).onConflictDoNothing();
    await recordAudit(tx, {
      actor: by,
      action: "user.role.grant",
      target: { type: "user", id: found.id },
      summary: `${role} to ${found.email}`,
    });
  });
}

export async function revokeRole(db: Db, emailInput: string, role: StoredRole, by: AuditActor | null = null): Promise<void> {
  const found = await requireUser(db, emailInput);
  await db.transaction(async (tx) => {
    if (role === "admin") await keepAnAdministrator(tx, found.id, "demoted");
    await tx.delete(userRoles).where(and(eq(userRoles.userId, found.id), eq(userRoles.role, role)));
    // Grants go with the moderator role: given the role again later, they start from nothing.
    if (role === "moderator") await tx.update(user).set({ grants: [] }).where(eq(user.id, found.id));
    await recordAudit(tx, {
      actor: by,
      action: "user.role.revoke",
      target: { type: "user", id: found.id },
      summary: `${role} from ${found.email}`,
    });
  });
}

/**
 * Refuses a change that would leave no enabled administrator (nobody could manage the site). Locks
 * the admin rows, so two concurrent changes cannot both pass the check.
 */
async function keepAnAdministrator(tx: Db, userId: string, what: "demoted" | "disabled" | "deleted"): Promise<void> {
  const admins = await tx
    .select({ userId: userRoles.userId })
    .from(userRoles)
    .innerJoin(user, eq(user.id, userRoles.userId))
    .where(and(eq(userRoles.role, "admin"), isNull(user.disabledAt)))
    .for("update");
  if (admins.length <= 1 && admins.some((a) => a.userId === userId)) throw new ConflictError(USER_MESSAGES.lastAdmin(what));
}

/** The user a Users-screen action is about (the form's userId). */
export async function userForAdminAction(db: Db, raw: unknown) {
  const { id } = parseOrThrow(userTargetSchema, raw);
  const [found] = await db
    .select({ id: user.id, email: user.email, disabledAt: user.disabledAt })
    .from(user)
    .where(eq(user.id, id))
    .limit(1);
  if (!found) throw new NotFoundError(USER_MESSAGES.notFound);
  return found;
}

/**
 * Disable (the user cannot sign in; every session of theirs ends) or enable again. Admins only; not
 * oneself, and never the last enabled administrator.
 */
export async function setUserDisabled(db: Db, actor: Actor | null, raw: unknown, disabled: boolean): Promise<{ email: string }> {
  authorize(actor, canManageUsers, USERS_FORBIDDEN);
  const found = await userForAdminAction(db, raw);
  if (found.id === actor.id) throw new ValidationError(USER_MESSAGES.notYourself);
  await db.transaction(async (tx) => {
    if (disabled) {
      await keepAnAdministrator(tx, found.id, "disabled");
      await tx.delete(session).where(eq(session.userId, found.id));
    }
    await tx
      .update(user)
      .set({ disabledAt: disabled ? (found.disabledAt ?? new Date()) : null, updatedAt: new Date() })
      .where(eq(user.id, found.id));
    await recordAudit(tx, {
      actor,
      action: disabled ? "user.disable" : "user.enable",
      target: { type: "user", id: found.id },
      summary: found.email,
    });
  });
  return { email: found.email };
}

/**
 * Deletes a user for good: their sign-in, sessions, roles and unsaved drafts go; their posts, revisions
 * and uploads stay, with no author (docs/decisions/0028-disable-delete-users.md). Admins only; not
 * oneself, and never the last enabled administrator.
 */
export async function deleteUser(db: Db, actor: Actor | null, raw: unknown): Promise<{ email: string }> {
  authorize(actor, canManageUsers, USERS_FORBIDDEN);
  const found = await userForAdminAction(db, raw);
  if (found.id === actor.id) throw new ValidationError(USER_MESSAGES.notYourself);
  await db.transaction(async (tx) => {
    await keepAnAdministrator(tx, found.id, "deleted");
    await tx.delete(user).where(eq(user.id, found.id));
    await recordAudit(tx, { actor, action: "user.delete", target: { type: "user", id: found.id }, summary: found.email });
  });
  return { email: found.email };
}

/** The Users screen's create (admins only). An empty password is generated and handed back once, never stored in clear. */
export async function addUser(db: Db, actor: Actor | null, raw: unknown): Promise<{ email: string; generatedPassword: string | null }> {
  authorize(actor, canManageUsers, USERS_FORBIDDEN);
  const input = parseOrThrow(createUserSchema, raw);
  const generated = input.password === "";
  const password = generated ? generatePassword() : input.password;
  const created = await createUser(db, { email: input.email, password, roles: input.role === "user" ? [] : [input.role] }, actor);
  return { email: created.email, generatedPassword: generated ? password : null };
}

/**
 * "Can also manage" on a moderator's row (admins only): the areas ticked replace the ones granted
 * before. Only a moderator holds grants; audited with what changed.
 */
export async function setUserGrants(db: Db, actor: Actor | null, raw: unknown): Promise<{ email: string; grants: GrantableArea[] }> {
  authorize(actor, canManageUsers, USERS_FORBIDDEN);
  const input = parseOrThrow(grantsSchema, raw);
  const found = await userForAdminAction(db, { id: input.id });
  if (roleFromStored(await getStoredRoles(db, found.id)) !== "moderator") throw new ValidationError(USER_MESSAGES.grantsForModerators);
  const grants = GRANTABLE_AREAS.filter((area) => input.grants.includes(area));
  await db.transaction(async (tx) => {
    await tx.update(user).set({ grants, updatedAt: new Date() }).where(eq(user.id, found.id));
    await recordAudit(tx, {
      actor,
      action: "user.grants",
      target: { type: "user", id: found.id },
      summary: `${found.email} can also manage: ${grants.map((g) => GRANT_LABELS[g]).join(", ") || "nothing more"}`,
    });
  });
  return { email: found.email, grants };
}

/** The Users screen's grant and revoke (admins only). */
export async function changeUserRole(
  db: Db,
  actor: Actor | null,
  change: "grant" | "revoke",
  raw: unknown,
): Promise<{ email: string; role: StoredRole }> {
  authorize(actor, canManageUsers, USERS_FORBIDDEN);
  const input = parseOrThrow(roleChangeSchema, raw);
  if (change === "grant") await grantRole(db, input.email, input.role, actor);
  else await revokeRole(db, input.email, input.role, actor);
  return input;
}
