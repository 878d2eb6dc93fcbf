import { Form } from "react-router";
import { FormField, SubmitButton, useFormFailure, useIsSubmitting, useSchemaForm } from "~/components/forms";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { fediverseSettingsSchema } from "./fediverse-schema";

export interface FediverseSettingsView {
  handle: string;
  /** @handle@host, as people type it in Mastodon's search. */
  address: string;
  count: number;
  followers: { handle: string; actorId: string }[];
}

/** /admin/settings, Fediverse: the address to follow the blog at, its followers, and the handle. */
export function FediverseSettingsForm({ view }: { view: FediverseSettingsView }) {
  const failure = useFormFailure("fediverse");
  const saving = useIsSubmitting({ intent: "fediverse" });
  const [form, fields] = useSchemaForm({
    id: "fediverse-settings",
    schema: fediverseSettingsSchema,
    lastResult: failure?.result,
    defaultValue: { handle: view.handle },
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-xl">Fediverse</h2>
        </CardTitle>
        <CardDescription>
          Follow <strong className="break-all text-foreground">{view.address}</strong> from Mastodon. New posts, edits and deletions reach
          followers; their replies wait in Comments.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <p>{view.count === 1 ? "1 follower" : `${view.count} followers`}</p>
        {view.followers.length > 0 ? (
          <p className="text-sm text-muted-foreground">
            Remove stops sending them posts; they can follow again. Block also refuses their follows, replies and likes (undo it in Comments
            → Block list).
          </p>
        ) : null}
        {view.followers.length > 0 ? (
          <ul aria-label="Followers" className="grid gap-1 text-sm">
            {view.followers.map((follower) => (
              <li key={follower.actorId} className="flex flex-wrap items-center gap-x-3 break-all">
                <a href={follower.actorId} rel="nofollow noopener noreferrer" className="text-primary underline underline-offset-4">
                  {`@${follower.handle}`}
                </a>
                <Form method="post" className="flex gap-2">
                  <input type="hidden" name="actorId" value={follower.actorId} />
                  <Button
                    type="submit"
                    name="intent"
                    value="fediverse-remove"
                    variant="outline"
                    size="sm"
                    aria-label={`Remove @${follower.handle}`}
                  >
                    Remove
                  </Button>
                  <Button
                    type="submit"
                    name="intent"
                    value="fediverse-block"
                    variant="outline"
                    size="sm"
                    aria-label={`Block @${follower.handle}`}
                  >
                    Block
                  </Button>
                </Form>
              </li>
            ))}
          </ul>
        ) : null}
        <Form method="post" id={form.id} noValidate={form.noValidate} onSubmit={form.onSubmit} className="grid gap-4">
          <input type="hidden" name="intent" value="fediverse" />
          <FormField
            field={fields.handle}
            label="Handle"
            hint={<p className="text-sm text-muted-foreground">Changing it after people follow makes the old address stop working.</p>}
          >
            {(props) => <Input {...props} autoComplete="off" />}
          </FormField>
          <SubmitButton pending={saving} pendingLabel="Saving…" className="justify-self-start">
            Save fediverse settings
          </SubmitButton>
        </Form>
      </CardContent>
    </Card>
  );
}
