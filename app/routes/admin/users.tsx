import { useEffect, useState } from "react";
import { data, Form, useActionData, useNavigation } from "react-router";
import { toast } from "sonner";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { actionFailure, requireActor } from "~/features/admin/admin-guard.server";
import { addUser, changeUserRole, listUsers, USERS_FORBIDDEN } from "~/features/users/users.server";
import { getSessionUser } from "~/features/auth/session.server";
import { PASSWORD_MIN_LENGTH } from "~/lib/password-policy";
import { canManageUsers } from "~/lib/permissions";
import { ROLE_LABELS, type Role } from "~/lib/roles";
import { getDb } from "~/server/db/client.server";
import { ValidationError, withRouteErrors } from "~/server/errors.server";
import { readForm } from "~/server/form.server";
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
  const form = Object.fromEntries(await withRouteErrors(() => readForm(request)));
  const db = getDb();
  try {
    switch (form.intent) {
      case "create": {
        const created = await addUser(db, actor, form);
        // The generated password is shown once to the admin, who passes it on.
        return data({ ok: true as const, message: `User ${created.email} created.`, generatedPassword: created.generatedPassword });
      }
      case "grant": {
        const input = await changeUserRole(db, actor, "grant", form);
        return data({ ok: true as const, message: `${input.email} is now ${ROLE_LABELS[input.role]}.`, generatedPassword: null });
      }
      case "revoke": {
        const input = await changeUserRole(db, actor, "revoke", form);
        return data({ ok: true as const, message: `${ROLE_LABELS[input.role]} role removed from ${input.email}.`, generatedPassword: null });
      }
      default:
        return actionFailure(new ValidationError("Unknown action."));
    }
  } catch (error) {
    return actionFailure(error);
  }
}

function RoleButton({ email, role, has, label }: { email: string; role: "admin" | "moderator"; has: boolean; label: string }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={has ? "revoke" : "grant"} />
      <input type="hidden" name="email" value={email} />
      <input type="hidden" name="role" value={role} />
      <Button type="submit" size="sm" variant={has ? "outline" : "secondary"} aria-label={`${has ? "Revoke" : "Grant"} ${label} for ${email}`}>
        {has ? `Revoke ${label}` : `Make ${label}`}
      </Button>
    </Form>
  );
}

function roleBadgeVariant(role: Role) {
  return role === "admin" ? "default" : role === "moderator" ? "secondary" : "outline";
}

export default function UsersPage({ loaderData }: Route.ComponentProps) {
  const { users } = loaderData;
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const creating = navigation.state === "submitting" && navigation.formData?.get("intent") === "create";
  const [formKey, setFormKey] = useState(0);

  useEffect(() => {
    if (!actionData) return;
    if (actionData.ok) {
      toast.success("Success", { description: actionData.message });
      if (actionData.generatedPassword !== undefined) setFormKey((k) => k + 1);
    } else {
      toast.error("Error", { description: actionData.error });
    }
  }, [actionData]);

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-3xl font-bold">Users</h1>
        <p className="mt-2 text-muted-foreground">Who can sign in, and what they may do.</p>
      </div>
      {actionData && !actionData.ok ? (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive">
          {actionData.error}
        </p>
      ) : null}
      {actionData?.ok && actionData.generatedPassword ? (
        <p role="status" className="rounded-md border bg-accent p-3 text-sm">
          {actionData.message} Temporary password (shown once, pass it on securely):{" "}
          <code className="font-mono font-semibold" data-testid="generated-password">
            {actionData.generatedPassword}
          </code>
        </p>
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle>
            <h2 className="text-xl">Create User</h2>
          </CardTitle>
          <CardDescription>
            Leave the password empty to generate one. Passwords need at least {PASSWORD_MIN_LENGTH} characters.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Form method="post" key={formKey} className="grid gap-4 sm:grid-cols-[2fr_2fr_1fr_auto] sm:items-end">
            <input type="hidden" name="intent" value="create" />
            <div className="grid gap-2">
              <Label htmlFor="new-email">Email</Label>
              <Input id="new-email" name="email" type="email" required autoComplete="off" />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="new-password">Temporary password (optional)</Label>
              <Input id="new-password" name="password" type="text" autoComplete="new-password" />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="new-role">Role</Label>
              <select
                id="new-role"
                name="role"
                defaultValue="user"
                className="h-9 rounded-md border border-input bg-transparent px-3 text-sm shadow-xs focus-visible:ring-[3px] focus-visible:ring-ring/50"
              >
                <option value="user">{ROLE_LABELS.user}</option>
                <option value="moderator">{ROLE_LABELS.moderator}</option>
                <option value="admin">{ROLE_LABELS.admin}</option>
              </select>
            </div>
            <Button type="submit" disabled={creating}>
              {creating ? "Creating..." : "Create User"}
            </Button>
          </Form>
        </CardContent>
      </Card>
      <div className="overflow-x-auto rounded-lg border">
        <table className="w-full text-sm">
          <caption className="sr-only">Users and their roles</caption>
          <thead className="bg-muted text-left">
            <tr>
              <th scope="col" className="p-3 font-medium">
                Email
              </th>
              <th scope="col" className="p-3 font-medium">
                Role
              </th>
              <th scope="col" className="p-3 font-medium">
                Change role
              </th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <tr key={u.id} className="border-t">
                <td className="p-3">{u.email}</td>
                <td className="p-3">
                  <Badge variant={roleBadgeVariant(u.role)}>{ROLE_LABELS[u.role]}</Badge>
                </td>
                <td className="p-3">
                  <div className="flex flex-wrap gap-2">
                    {u.role !== "admin" ? <RoleButton email={u.email} role="moderator" has={u.role === "moderator"} label="Moderator" /> : null}
                    <RoleButton email={u.email} role="admin" has={u.role === "admin"} label="Administrator" />
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
