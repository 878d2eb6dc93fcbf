import { data } from "react-router";
import { requireArea } from "~/features/auth/guards.server";
import { handleAdminForm, type AdminFormContext } from "~/features/admin/admin-form.server";
import { UserManagement, type UsersActionData } from "~/features/users/user-management";
import { createUserSchema, roleChangeSchema } from "~/features/users/user-schema";
import { addUser, changeUserRole, deleteUser, listUsers, setUserDisabled, setUserGrants } from "~/features/users/users.server";
import { sendPasswordResetFor } from "~/features/auth/password-reset.server";
import { parseSubmission } from "~/lib/forms";
import { GRANT_LABELS } from "~/lib/permissions";
import { ROLE_LABELS } from "~/lib/roles";
import { getDb } from "~/server/db/client.server";
import { invalidSubmission } from "~/server/failure-reply.server";
import type { Route } from "./+types/users";

export function meta() {
  return [{ title: "Users" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireArea(request, "users");
  const users = await listUsers(getDb());
  return {
    currentUserId: actor.id,
    users: users.map((u) => ({
      id: u.id,
      email: u.email,
      role: u.role,
      grants: u.grants,
      disabled: u.disabled,
      createdAt: u.createdAt.toISOString(),
    })),
  };
}

function done(message: string) {
  return data<UsersActionData>({ ok: true, message, generatedPassword: null });
}

export async function action({ request }: Route.ActionArgs) {
  const changeRole =
    (change: "grant" | "revoke") =>
    async ({ actor, db, form, formData }: AdminFormContext) => {
      // Not kept for the reply: a refused role change answers with its message, not under the create form's fields.
      const parsed = parseSubmission(formData, roleChangeSchema);
      if (parsed.status !== "success") return invalidSubmission(parsed);
      const input = await changeUserRole(db, actor, change, form);
      const message =
        change === "grant"
          ? `${input.email} is now ${ROLE_LABELS[input.role]}.`
          : `${ROLE_LABELS[input.role]} role removed from ${input.email}.`;
      return done(message);
    };
  return handleAdminForm(request, "users", {
    create: async ({ actor, db, form, parse }) => {
      const parsed = parse(createUserSchema);
      if (parsed.status !== "success") return invalidSubmission(parsed);
      const created = await addUser(db, actor, form);
      return data<UsersActionData>({
        ok: true,
        message: `User ${created.email} created.`,
        // Shown once to the admin, who passes it on; never stored in clear.
        generatedPassword: created.generatedPassword,
      });
    },
    grant: changeRole("grant"),
    revoke: changeRole("revoke"),
    disable: async ({ actor, db, form }) => done(`${(await setUserDisabled(db, actor, form, true)).email} is disabled and signed out.`),
    enable: async ({ actor, db, form }) => done(`${(await setUserDisabled(db, actor, form, false)).email} can sign in again.`),
    delete: async ({ actor, db, form }) =>
      done(`${(await deleteUser(db, actor, form)).email} was deleted. Their posts stay, without an author.`),
    grants: async ({ actor, db, formData }) => {
      const saved = await setUserGrants(db, actor, { id: formData.get("id"), grants: formData.getAll("grants") });
      const what = saved.grants.map((g) => GRANT_LABELS[g]).join(", ");
      return done(what ? `${saved.email} can also manage: ${what}.` : `${saved.email} manages posts and comments only.`);
    },
    reset: async ({ actor, db, form }) =>
      done(`A password reset link is on its way to ${(await sendPasswordResetFor(db, actor, form)).email}.`),
  });
}

export default function UsersRoute({ loaderData }: Route.ComponentProps) {
  return <UserManagement users={loaderData.users} currentUserId={loaderData.currentUserId} />;
}
