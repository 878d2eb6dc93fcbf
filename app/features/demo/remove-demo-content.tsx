import { Form } from "react-router";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { SubmitButton, useIsSubmitting } from "~/components/forms";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import type { DemoContent } from "./demo-content.server";

export const REMOVE_DEMO_INTENT = "remove-demo";

/** What goes, one line per kind, each naming its items. */
function DemoList({ content }: { content: DemoContent }) {
  const line = (label: string, items: { title: string }[]) =>
    items.length === 0 ? null : (
      <li>
        <span className="font-medium">
          {label} ({items.length}):
        </span>{" "}
        {items.map((item) => item.title).join("; ")}
      </li>
    );
  return (
    <ul className="grid list-disc gap-1 pl-5 text-left text-sm">
      {line("Demo posts", content.posts)}
      {line("Projects", content.projects)}
      {line("Testimonials", content.testimonials)}
      {line("Recent Roles", content.positions)}
      {content.resume ? (
        <li>
          <span className="font-medium">Resume:</span> the shipped /resume.pdf (the resume link is emptied)
        </li>
      ) : null}
      <li>
        <span className="font-medium">Portrait:</span> the demo has no photo of its own; the placeholder silhouette shows until you upload
        your portrait in the settings above.
      </li>
    </ul>
  );
}

/**
 * /admin/settings, administrators: remove the demo content the first start added and the owner has not
 * edited, after a confirmation that lists it. Edited and new items are never listed and stay.
 */
export function RemoveDemoContent({ content, empty }: { content: DemoContent; empty: boolean }) {
  const busy = useIsSubmitting({ intent: REMOVE_DEMO_INTENT });
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-xl">Demo content</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {empty ? (
          <p className="text-sm text-muted-foreground">No demo content is left: every post, project, testimonial and role is yours.</p>
        ) : (
          <>
            <p className="text-sm text-muted-foreground">
              The example posts, projects, testimonials, roles and resume the site started with. Only what you have not edited is removed;
              anything you changed or added stays.
            </p>
            <div>
              <ConfirmDialog
                trigger={
                  <Button type="button" variant="destructive">
                    Remove demo content
                  </Button>
                }
                title="Remove the demo content?"
                description="These demo items, which you have not edited, will be deleted. This cannot be undone."
                details={<DemoList content={content} />}
              >
                <Form method="post">
                  <input type="hidden" name="intent" value={REMOVE_DEMO_INTENT} />
                  <SubmitButton variant="destructive" pending={busy} pendingLabel="Removing..." className="w-full">
                    Remove demo content
                  </SubmitButton>
                </Form>
              </ConfirmDialog>
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}
