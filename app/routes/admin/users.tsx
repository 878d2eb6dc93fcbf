import { data } from "react-router";
import { adminFormFailure, requireActor } from "~/features/admin/admin-guard.server";
import { getSessionUser } from "~/features/auth/session.server";
import { UserManagement, type UsersActionData } from "~/features/users/user-management";
import { createUserSchema, roleChangeSchema, USERS_FORBIDDEN } from "~/features/users/user-schema";
import { addUser, changeUserRole, listUsers } from "~/features/users/users.server";
import { parseSubmission, type Submission } from "~/lib/forms";
import { canManageUsers } from "~/lib/permissions";
import { ROLE_LABELS } from "~/lib/roles";
import { getDb } from "~/server/db/client.server";
import { ValidationError, withRouteErrors } from "~/server/errors.server";
import { readForm } from "~/server/form.server";
import { invalidSubmission } from "~/server/form-reply.server";
import type { Route } from "./+types/users";

export function meta() {
  return [{ title: "Users" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireActor(request, canManageUsers, USERS_FORBIDDEN);
  const users = await listUsers(getDb());
  return {
    currentUserId: actor.id,
    users: users.map((u) => ({ id: u.id, email: u.email, role: u.role, createdAt: u.createdAt.toISOString() })),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const actor = await getSessionUser(request);
  const formData = await withRouteErrors(() => readForm(request));
  const form = Object.fromEntries(formData);
  const db = getDb();
  let submission: Submission<unknown> | undefined;
  try {
    switch (form.intent) {
      case "create": {
        const parsed = parseSubmission(formData, createUserSchema);
        submission = parsed;
        if (parsed.status !== "success") return invalidSubmission(parsed);
        const created = await addUser(db, actor, form);
        return data<UsersActionData>({
          ok: true,
          message: `User ${created.email} created.`,
          // Shown once to the admin, who passes it on; never stored in clear.
          generatedPassword: created.generatedPassword,
        });
      }
      case "grant": {
        const parsed = parseSubmission(formData, roleChangeSchema);
        if (parsed.status !== "success") return invalidSubmission(parsed);
        const input = await changeUserRole(db, actor, "grant", form);
        return data<UsersActionData>({ ok: true, message: `${input.email} is now ${ROLE_LABELS[input.role]}.`, generatedPassword: null });
      }
      case "revoke": {
        const parsed = parseSubmission(formData, roleChangeSchema);
        if (parsed.status !== "success") return invalidSubmission(parsed);
        const input = await changeUserRole(db, actor, "revoke", form);
        return data<UsersActionData>({ ok: true, message: `${ROLE_LABELS[input.role]} role removed from ${input.email}.`, generatedPassword: null });
      }
      default:
        throw new ValidationError("Unknown action.");
    }
  } catch (error) {
    return adminFormFailure(error, submission);
  }
}

export default function UsersRoute({ loaderData }: Route.ComponentProps) {
  return <UserManagement users={loaderData.users} />;
}
