import { Clock, Mail } from "lucide-react";
import { data, Link } from "react-router";
import { recordConversion } from "~/features/analytics/attribution.server";
import { ContactForm, type ContactActionData } from "~/features/contact/contact-form";
import { contactFieldErrors, contactSchema } from "~/features/contact/contact-schema";
import { CONTACT_SEND_FAILED, contactFieldsOf, firstName, thankYouTitle, type ContactFieldErrors } from "~/features/contact/contact-texts";
import { submitContactMessage } from "~/features/contact/contact.server";
import { getSiteSettings } from "~/features/settings/settings.server";
import { VERIFICATION_REQUIRED } from "~/features/verification/verification";
import { getVerificationConfig } from "~/features/verification/verification.server";
import { STATIC_PAGE } from "~/lib/hydration";
import { seoContext, seoMeta } from "~/lib/seo";
import { getDb } from "~/server/db/client.server";
import { SITE_COPY_DEFAULTS } from "~/features/pages/site-copy";
import { readSiteCopyQuietly } from "~/features/pages/site-copy.server";
import { errorAnswer } from "~/server/errors.server";
import { withPageFailures } from "~/server/failure-reply.server";
import { readForm } from "~/server/form.server";
import { clientIp } from "~/server/request.server";
import type { Route } from "./+types/contact";

/** No React for anonymous visitors; the enhancement script loads the form's behaviour. */
export const handle = STATIC_PAGE;

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return seoMeta(seoContext(matches), {
    title: "Contact — Let's Connect",
    description: loaderData?.texts.description ?? SITE_COPY_DEFAULTS.contactDescription,
    path: "/contact",
  });
}

export async function loader() {
  const [{ contactEmail }, copy] = await Promise.all([getSiteSettings(), readSiteCopyQuietly(getDb())]);
  return {
    texts: {
      heading: copy.contactHeading,
      blurb: copy.contactBlurb,
      responseTime: copy.contactResponseTime,
      description: copy.contactDescription,
    },
    thanks: { title: copy.contactThankYouTitle, text: copy.contactThankYouText },
    verification: getVerificationConfig(),
    email: contactEmail,
  };
}

/** The plain form post (no JavaScript): the same checks and server function as /api/send-contact-email. */
export async function action({ request }: Route.ActionArgs) {
  const form = await withPageFailures(() => readForm(request));
  const text = (key: string) => {
    const value = form.get(key);
    return typeof value === "string" ? value : "";
  };
  // Drawn back into the form as typed when something is refused.
  const values = { name: text("name"), email: text("email"), message: text("message") };
  const refused = (fieldErrors: ContactFieldErrors, formError: { title: string; description: string } | null, init: ResponseInit) =>
    data<ContactActionData>({ sent: false, values, fieldErrors, formError }, init);
  const parsed = contactSchema.safeParse(values);
  if (!parsed.success) return refused(contactFieldErrors(parsed.error), null, { status: 400 });
  try {
    const result = await submitContactMessage(
      getDb(),
      { ...parsed.data, turnstileToken: text("turnstileToken") || null, clientId: text("clientId") || null, website: text("website") },
      clientIp(request),
    );
    if (result.stored) await recordConversion(getDb(), "contact", result.id, request, true);
    return data<ContactActionData>({ sent: true, firstName: firstName(parsed.data.name) });
  } catch (error) {
    // The form comes back filled in, with the server's field errors under their fields.
    const { status, message, fieldErrors, headers } = errorAnswer(error);
    if (status === 400) return refused(contactFieldsOf(fieldErrors ?? {}), null, { status, headers });
    const formError =
      status === 403
        ? { ...VERIFICATION_REQUIRED }
        : status >= 500
          ? { ...CONTACT_SEND_FAILED }
          : { title: CONTACT_SEND_FAILED.title, description: message };
    return refused({}, formError, { status, headers });
  }
}

export default function Contact({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section className="mx-auto max-w-6xl px-4 py-16">
      <h1 className="text-4xl font-bold tracking-tight">{loaderData.texts.heading}</h1>
      <p className="mt-3 max-w-2xl text-lg text-muted-foreground">{loaderData.texts.blurb}</p>
      <div className="mt-10 grid gap-8 md:grid-cols-[1fr_2fr]">
        <aside className="h-fit rounded-lg border bg-card p-6 text-card-foreground" aria-label="Contact details">
          <h2 className="text-xl font-semibold">Get in touch</h2>
          {loaderData.email ? (
            <p className="mt-3 flex items-center gap-2">
              <Mail aria-hidden="true" className="size-4" />
              <a href={`mailto:${loaderData.email}`} className="text-primary underline underline-offset-4">
                {loaderData.email}
              </a>
            </p>
          ) : null}
          <p className="mt-4 text-sm text-muted-foreground">
            I work as a product manager, project manager and application developer, taking ideas from a first conversation through a clear
            roadmap to working software in people&apos;s hands.
          </p>
          <p className="mt-4 flex items-center gap-2 text-sm">
            <Clock aria-hidden="true" className="size-4" />
            {loaderData.texts.responseTime}
          </p>
        </aside>
        <div className="rounded-lg border p-6">
          {actionData?.sent ? (
            <div role="status" className="space-y-3">
              <h2 className="text-2xl font-semibold">{thankYouTitle(loaderData.thanks.title, actionData.firstName)}</h2>
              <p>{loaderData.thanks.text}</p>
              <Link to="/contact" reloadDocument className="text-primary underline underline-offset-4">
                Send another message
              </Link>
            </div>
          ) : (
            <ContactForm verification={loaderData.verification} actionData={actionData} thanks={loaderData.thanks} />
          )}
        </div>
      </div>
    </section>
  );
}
