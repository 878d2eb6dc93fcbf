import { data } from "react-router";
import { requireArea } from "~/features/auth/guards.server";
import { formFailure, withPageFailures, invalidSubmission } from "~/server/failure-reply.server";
import { getSessionUser } from "~/features/auth/session.server";
import { TestimonialManagement, type TestimonialActionData } from "~/features/pages/testimonial-management";
import { testimonialInputSchema } from "~/features/pages/testimonials-schema";
import {
  createTestimonial,
  deleteTestimonial,
  listTestimonialsForAdmin,
  moveTestimonial,
  setTestimonialHidden,
  updateTestimonial,
} from "~/features/pages/testimonials.server";
import { parseSubmission, type Submission } from "~/lib/forms";
import { getDb } from "~/server/db/client.server";
import { ValidationError } from "~/server/errors.server";
import { readForm } from "~/server/form.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/testimonials";

export function meta() {
  return [{ title: "Testimonials" }, { name: "robots", content: "noindex" }];
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireArea(request, "page-content");
  return { testimonials: await listTestimonialsForAdmin(getDb()) };
}

export async function action({ request }: Route.ActionArgs) {
  const actor = await getSessionUser(request);
  const formData = await withPageFailures(() => readForm(request));
  const form = Object.fromEntries(formData);
  const db = getDb();
  let submission: Submission<unknown> | undefined;
  try {
    switch (form.intent) {
      case "create":
      case "update": {
        const parsed = parseSubmission(formData, testimonialInputSchema);
        submission = parsed;
        if (parsed.status !== "success") return invalidSubmission(parsed);
        if (form.intent === "create") {
          const created = await createTestimonial(db, actor, form);
          return await redirectWithToast("/admin/testimonials", {
            title: "Testimonial added",
            description: `${created.name}'s testimonial is on the site.`,
            type: "success",
          });
        }
        const updated = await updateTestimonial(db, actor, form.id, form);
        return await redirectWithToast("/admin/testimonials", {
          title: "Testimonial saved",
          description: `${updated.name}'s testimonial was updated.`,
          type: "success",
        });
      }
      case "hide":
        await setTestimonialHidden(db, actor, form.id, form.hidden);
        return data<TestimonialActionData>({ ok: true });
      case "move":
        await moveTestimonial(db, actor, form.id, form.direction);
        return data<TestimonialActionData>({ ok: true });
      case "delete": {
        const deleted = await deleteTestimonial(db, actor, form.id);
        return await redirectWithToast("/admin/testimonials", {
          title: "Testimonial deleted",
          description: `${deleted.name}'s testimonial was removed.`,
          type: "success",
        });
      }
      default:
        throw new ValidationError("Unknown action.");
    }
  } catch (error) {
    return formFailure(error, submission, { refusals: "page" });
  }
}

export default function TestimonialsRoute({ loaderData }: Route.ComponentProps) {
  return <TestimonialManagement testimonials={loaderData.testimonials} />;
}
