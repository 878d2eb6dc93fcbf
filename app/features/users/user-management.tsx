import { KeyRound, UserCheck, UserX } from "lucide-react";
import { useEffect, useState } from "react";
import { Form, useActionData } from "react-router";
import { toast } from "~/components/toaster";
import { FormField, SubmitButton, useIsSubmitting, useSchemaForm } from "~/components/forms";
import { DeleteConfirm } from "~/components/admin-list";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import type { FormFailure, SubmissionResult } from "~/lib/forms";
import { PASSWORD_MIN_LENGTH } from "~/lib/password-policy";
import { GRANT_LABELS, GRANTABLE_AREAS, type GrantableArea } from "~/lib/permissions";
import { ROLE_LABELS, type Role } from "~/lib/roles";
import { createUserSchema } from "./user-schema";

export interface UserRow {
  id: string;
  email: string;
  role: Role;
  grants: GrantableArea[];
  disabled: boolean;
  createdAt: string;
}

/** What the /admin/users action answers: a done message (with a generated password once), or a failure. */
export type UsersActionData = { ok: true; message: string; generatedPassword: string | null } | FormFailure;

function RoleButton({ email, role, has, label }: { email: string; role: "admin" | "moderator"; has: boolean; label: string }) {
  return (
    <Form method="post">
      <RoleFields email={email} role={role} intent={has ? "revoke" : "grant"} />
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

function RoleFields({ email, role, intent }: { email: string; role: "admin" | "moderator"; intent: "grant" | "revoke" }) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="email" value={email} />
      <input type="hidden" name="role" value={role} />
    </>
  );
}

/** Removing one's own admin role locks one out of Users and Settings at once: asked first. */
function RevokeOwnAdmin({ email }: { email: string }) {
  return (
    <ConfirmDialog
      trigger={
        <Button type="button" size="sm" variant="outline" aria-label={`Revoke Administrator for ${email}`}>
          Revoke Administrator
        </Button>
      }
      title="Remove your own administrator role?"
      description="You will lose access to Users, Settings, Projects and the audit log as soon as you confirm. Only another administrator can give the role back."
    >
      <Form method="post">
        <RoleFields email={email} role="admin" intent="revoke" />
        <Button type="submit" variant="destructive" className="w-full">
          Remove my administrator role
        </Button>
      </Form>
    </ConfirmDialog>
  );
}

/** A one-click action on a user (no confirmation: each can be undone or repeated). */
function UserActionButton({ id, intent, label, children }: { id: string; intent: string; label: string; children: React.ReactNode }) {
  const busy = useIsSubmitting({ intent, id });
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <Button type="submit" size="sm" variant="outline" aria-label={label} disabled={busy}>
        {children}
      </Button>
    </Form>
  );
}

/** A moderator's "Can also manage": the areas an administrator opens to them beyond posts and comments. */
function GrantsForm({ user }: { user: UserRow }) {
  const saving = useIsSubmitting({ intent: "grants", id: user.id });
  return (
    <Form method="post" className="mt-2">
      <input type="hidden" name="intent" value="grants" />
      <input type="hidden" name="id" value={user.id} />
      <fieldset className="grid gap-1 text-sm">
        <legend className="mb-1 font-medium">Can also manage:</legend>
        {GRANTABLE_AREAS.map((area) => (
          <label key={area} className="flex items-center gap-2">
            <input
              type="checkbox"
              name="grants"
              value={area}
              defaultChecked={user.grants.includes(area)}
              className="size-4 accent-primary"
            />
            {GRANT_LABELS[area]}
          </label>
        ))}
      </fieldset>
      <Button
        type="submit"
        size="sm"
        variant="outline"
        className="mt-2"
        disabled={saving}
        aria-label={`Save what ${user.email} can also manage`}
      >
        {saving ? "Saving…" : "Save"}
      </Button>
    </Form>
  );
}

function roleBadgeVariant(role: Role) {
  return role === "admin" ? "default" : role === "moderator" ? "secondary" : "outline";
}

/** SPEC: the Users screen — who can sign in, and what they may do. */
export function UserManagement({ users, currentUserId }: { users: UserRow[]; currentUserId: string }) {
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
      {/* Below md each row is a card (cells stacked): no button is ever cut off or scrolled out of sight. */}
      <div className="rounded-lg border md:overflow-x-auto">
        <table className="w-full text-sm max-md:block">
          <caption className="sr-only">Users and their roles</caption>
          <thead className="bg-muted text-left max-md:sr-only">
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
              <th scope="col" className="p-3 font-medium">
                Account
              </th>
            </tr>
          </thead>
          <tbody className="max-md:block">
            {users.map((u) => {
              const you = u.id === currentUserId;
              return (
                <tr key={u.id} className="border-t max-md:block max-md:p-3 max-md:first:border-t-0">
                  <td className="p-3 [overflow-wrap:anywhere] max-md:block max-md:px-0 max-md:py-1">
                    {u.email}
                    {you ? (
                      <Badge variant="outline" className="ml-2 align-middle">
                        You
                      </Badge>
                    ) : null}
                  </td>
                  <td className="p-3 max-md:block max-md:px-0 max-md:py-1">
                    <div className="flex flex-wrap gap-1">
                      <Badge variant={roleBadgeVariant(u.role)}>{ROLE_LABELS[u.role]}</Badge>
                      {u.disabled ? <Badge variant="destructive">Disabled</Badge> : null}
                    </div>
                  </td>
                  <td className="p-3 max-md:block max-md:px-0 max-md:py-1">
                    <div className="flex flex-wrap gap-2">
                      {u.role !== "admin" ? (
                        <RoleButton email={u.email} role="moderator" has={u.role === "moderator"} label="Moderator" />
                      ) : null}
                      {you && u.role === "admin" ? (
                        <RevokeOwnAdmin email={u.email} />
                      ) : (
                        <RoleButton email={u.email} role="admin" has={u.role === "admin"} label="Administrator" />
                      )}
                    </div>
                    {u.role === "moderator" ? <GrantsForm user={u} /> : null}
                  </td>
                  <td className="p-3 max-md:block max-md:px-0 max-md:py-1">
                    <div className="flex flex-wrap gap-2">
                      {u.disabled ? null : (
                        <UserActionButton id={u.id} intent="reset" label={`Send password reset link to ${u.email}`}>
                          <KeyRound aria-hidden />
                          Send reset link
                        </UserActionButton>
                      )}
                      {you ? null : (
                        <>
                          <UserActionButton
                            id={u.id}
                            intent={u.disabled ? "enable" : "disable"}
                            label={`${u.disabled ? "Enable" : "Disable"} ${u.email}`}
                          >
                            {u.disabled ? <UserCheck aria-hidden /> : <UserX aria-hidden />}
                            {u.disabled ? "Enable" : "Disable"}
                          </UserActionButton>
                          <DeleteConfirm
                            id={u.id}
                            name={u.email}
                            title={`Delete ${u.email}?`}
                            description="Their sign-in, sessions, roles and unsaved drafts are removed for good. Posts they wrote stay on the site, shown without an author. To keep the account but stop them signing in, use Disable instead."
                            confirmLabel="Delete user"
                          />
                        </>
                      )}
                    </div>
                  </td>
                </tr>
              );
            })}
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
