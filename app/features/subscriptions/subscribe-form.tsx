// First (see subscription-schema.ts): the schema below is created when this module loads.
import "~/lib/zod-csp";
import { useEffect, useState } from "react";
import { useFetcher, useRouteLoaderData } from "react-router";
import { z } from "zod";
import { FieldError, FormErrors, FormField, SubmitButton, useSchemaForm, errorIdOf } from "~/components/forms";
import { Input } from "~/components/ui/input";
import { HumanVerification } from "~/features/verification/human-verification";
import type { VerificationConfig } from "~/features/verification/verification";
import { verificationAttributes } from "~/features/verification/verification-widget";
import { CATEGORIES } from "~/lib/categories";
import type { FormFailure } from "~/lib/forms";
import { cn } from "~/lib/utils";
import { SUBSCRIBE_FORM_ATTRIBUTE } from "./subscribe-form-behavior";
import { ALL_CATEGORIES, SUBSCRIBE_TEXT, subscribeSchema } from "./subscription-schema";

/** What POST /subscribe answers (to the fetcher, or to the no-JavaScript page). */
export type SubscribeActionData = { ok: true } | FormFailure;

const DEFAULT_VERIFICATION: VerificationConfig = { provider: "altcha", challengeUrl: "/api/verification/challenge" };

const rootVerification = z.object({
  verification: z.discriminatedUnion("provider", [
    z.object({ provider: z.literal("altcha"), challengeUrl: z.string() }),
    z.object({ provider: z.literal("turnstile"), siteKey: z.string() }),
  ]),
});

/** The active verifier, as the root loader read it. */
function useVerificationConfig(): VerificationConfig {
  const parsed = rootVerification.safeParse(useRouteLoaderData("root"));
  return parsed.success ? parsed.data.verification : DEFAULT_VERIFICATION;
}

/**
 * 'Subscribe': an email and which categories (all ticked by default), posted to
 * /subscribe. With JavaScript it stays on the page (a fetcher); without it the browser posts the
 * form and /subscribe shows the answer. The verification widget appears once the form is used,
 * so pages that merely show the form fetch no challenge. On pages without React (anonymous public pages) this is
 * the markup, and subscribe-form-behavior.ts does the same in the browser.
 */
export function SubscribeForm({
  id,
  heading = "Subscribe",
  headingLevel = "h2",
  actionData,
  className,
}: {
  /** Unique per page (the footer and a post page both show one). */
  id: string;
  heading?: string;
  headingLevel?: "h1" | "h2";
  /** The no-JavaScript post's answer (the /subscribe page). */
  actionData?: SubscribeActionData;
  className?: string;
}) {
  const fetcher = useFetcher<SubscribeActionData>({ key: `subscribe-${id}` });
  const reply = fetcher.data ?? actionData;
  const verification = useVerificationConfig();
  const [engaged, setEngaged] = useState(false);
  const [token, setToken] = useState<string | null>(null);
  const [resetKey, setResetKey] = useState(0);
  const [form, fields] = useSchemaForm({
    id,
    schema: subscribeSchema,
    lastResult: reply && !reply.ok ? reply.result : undefined,
  });
  // Verification tokens are single-use: a refused submission needs a fresh one.
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data && !fetcher.data.ok) setResetKey((k) => k + 1);
  }, [fetcher.state, fetcher.data]);

  const Heading = headingLevel;
  const headingId = `${id}-heading`;
  const initial = fields.categories.initialValue;
  const ticked = new Set(Array.isArray(initial) ? initial : initial ? [initial] : ALL_CATEGORIES);
  const categoriesErrorId = errorIdOf(`${id}-categories`);
  return (
    <section aria-labelledby={headingId} className={cn("rounded-lg border bg-card p-6 text-card-foreground", className)}>
      <Heading id={headingId} className={headingLevel === "h1" ? "text-3xl font-bold" : "text-xl font-semibold"}>
        {heading}
      </Heading>
      {reply?.ok ? (
        <p role="status" className="mt-3">
          {SUBSCRIBE_TEXT.checkInbox}
        </p>
      ) : (
        <>
          <p className="mt-2 text-sm text-muted-foreground">New posts by email. Unsubscribe with one click in any email.</p>
          <fetcher.Form
            method="post"
            action="/subscribe"
            id={form.id}
            noValidate={form.noValidate}
            onSubmit={form.onSubmit}
            onFocus={() => setEngaged(true)}
            aria-labelledby={headingId}
            className="mt-4 space-y-4"
            // Without React, subscribe-form-behavior.ts shows the widget from these.
            {...{ [SUBSCRIBE_FORM_ATTRIBUTE]: "" }}
            {...verificationAttributes(verification)}
          >
            <FormErrors form={form} />
            <FormField field={fields.email} label="Email">
              {(props) => <Input {...props} type="email" autoComplete="email" />}
            </FormField>
            <fieldset
              key={fields.categories.key}
              aria-describedby={fields.categories.errors?.length ? categoriesErrorId : undefined}
              className="space-y-2"
            >
              <legend className="text-sm font-medium">Categories</legend>
              <div className="flex flex-wrap gap-x-4 gap-y-2">
                {CATEGORIES.map((category) => (
                  <label key={category} className="flex items-center gap-2 text-sm">
                    <input type="checkbox" name="categories" value={category} defaultChecked={ticked.has(category)} className="size-4" />
                    {category}
                  </label>
                ))}
              </div>
              <FieldError id={categoriesErrorId} errors={fields.categories.errors} />
            </fieldset>
            {engaged ? <HumanVerification config={verification} onToken={setToken} resetKey={resetKey} /> : null}
            <noscript>
              <p className="text-sm text-muted-foreground">The security check needs JavaScript.</p>
            </noscript>
            {/* Once the form is in use, sending waits for the verification (without JavaScript the server asks for it). */}
            <SubmitButton pending={fetcher.state !== "idle"} pendingLabel="Subscribing..." disabled={engaged && !token}>
              Subscribe
            </SubmitButton>
          </fetcher.Form>
        </>
      )}
    </section>
  );
}
