import { useEffect, useState } from "react";
import { Form, useActionData } from "react-router";
import { toast } from "sonner";
import { FormField, SubmitButton, useIsSubmitting, useSchemaForm } from "~/components/forms";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import type { FormFailure, SubmissionResult } from "~/lib/forms";
import { PASSWORD_MIN_LENGTH } from "~/lib/password-policy";
import { ROLE_LABELS, type Role } from "~/lib/roles";
import { createUserSchema } from "./user-schema";

export interface UserRow {
  id: string;
  email: string;
  role: Role;
  createdAt: string;
}

/** What the /admin/users action answers: a done message (with a generated password once), or a failure. */
export type UsersActionData = { ok: true; message: string; generatedPassword: string | null } | FormFailure;

function RoleButton({ email, role, has, label }: { email: string; role: "admin" | "moderator"; has: boolean; label: string }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={has ? "revoke" : "grant"} />
      <input type="hidden" name="email" value={email} />
      <input type="hidden" name="role" value={role} />
      <Button
        type="submit"
        size="sm"
        variant={has ? "outline" : "secondary"}
        aria-label={`${has ? "Revoke" : "Grant"} ${label} for ${email}`}
      >
        {has ? `Revoke ${label}` : `Make ${label}`}
      </Button>
    </Form>
  );
}

function roleBadgeVariant(role: Role) {
  return role === "admin" ? "default" : role === "moderator" ? "secondary" : "outline";
}

/** SPEC: the Users screen — who can sign in, and what they may do. */
export function UserManagement({ users }: { users: UserRow[] }) {
  const actionData = useActionData<UsersActionData>();
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
          <CreateUserForm key={formKey} lastResult={actionData && !actionData.ok ? actionData.result : undefined} />
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
                    {u.role !== "admin" ? (
                      <RoleButton email={u.email} role="moderator" has={u.role === "moderator"} label="Moderator" />
                    ) : null}
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

function CreateUserForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const creating = useIsSubmitting({ intent: "create" });
  const [form, fields] = useSchemaForm({ id: "new-user", schema: createUserSchema, lastResult, defaultValue: { role: "user" } });
  return (
    <Form
      method="post"
      id={form.id}
      noValidate={form.noValidate}
      onSubmit={form.onSubmit}
      className="grid gap-4 sm:grid-cols-[2fr_2fr_1fr_auto] sm:items-start"
    >
      <input type="hidden" name="intent" value="create" />
      <FormField field={fields.email} id="new-email" label="Email">
        {(props) => <Input {...props} type="email" autoComplete="off" />}
      </FormField>
      <FormField field={fields.password} id="new-password" label="Temporary password (optional)">
        {(props) => <Input {...props} type="text" autoComplete="new-password" />}
      </FormField>
      <FormField field={fields.role} id="new-role" label="Role" select>
        {(props) => (
          <select
            {...props}
            className="h-9 rounded-md border border-input bg-transparent px-3 text-sm shadow-xs focus-visible:ring-[3px] focus-visible:ring-ring/50"
          >
            <option value="user">{ROLE_LABELS.user}</option>
            <option value="moderator">{ROLE_LABELS.moderator}</option>
            <option value="admin">{ROLE_LABELS.admin}</option>
          </select>
        )}
      </FormField>
      {/* Lined up with the inputs (below their labels), not with their error messages. */}
      <SubmitButton pending={creating} pendingLabel="Creating..." className="sm:mt-[22px]">
        Create User
      </SubmitButton>
    </Form>
  );
}
