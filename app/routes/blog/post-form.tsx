import { data, redirect } from "react-router";
import { getSessionUser } from "~/features/auth/session.server";
import { autosaveToOffer, type StoredAutosave } from "~/features/posts/write/autosave.server";
import { PostForm } from "~/features/posts/editor/post-form";
import { warmRenderer } from "~/features/posts/content/post-render.server";
import { requireStaffPage } from "~/features/posts/page-guards.server";
import { createPost, findMovedPost, getPostBySlug, updatePost } from "~/features/posts/write/posts.server";
import { postFormSchema, postInputFromForm } from "~/features/posts/write/post-schema";
import { readNewsletterSettings } from "~/features/subscriptions/newsletter-settings.server";
import { postEmailStatus } from "~/features/subscriptions/subscriptions.server";
import { categoryPath, parseCategory, postPath } from "~/lib/categories";
import { parseSubmission, type Submission } from "~/lib/forms";
import { formatInZone, utcToZonedLocal } from "~/lib/time-zone";
import { getDb } from "~/server/db/client.server";
import { getEnv } from "~/server/env.server";
import { NotFoundError } from "~/server/errors.server";
import { readForm } from "~/server/form.server";
import { formFailure, invalidSubmission } from "~/server/form-reply.server";
import { LIMITS } from "~/server/limits.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/post-form";
import { requireTwoFactorForStaffPage } from "~/features/admin/two-factor-guard.server";

/** Create mode when the slug is 'new' or absent (SPEC §2). */
function slugOf(params: { slug?: string }): string | null {
  return params.slug && params.slug !== "new" ? params.slug : null;
}

// While the site requires 2FA of staff, the editor sends a staff member without it to set it up (issue 15).
export const middleware: Route.MiddlewareFunction[] = [({ request }) => requireTwoFactorForStaffPage(request)];

export async function loader({ request, params }: Route.LoaderArgs) {
  const category = parseCategory(params.category);
  if (!category) throw data("Oops! Page not found", { status: 404 });
  const user = await requireStaffPage(request);
  warmRenderer();
  const slug = slugOf(params);
  if (category !== params.category) throw redirect(slug ? `${postPath(category, slug)}/edit` : `${categoryPath(category)}/new`, 301);
  const timeZone = getEnv().SITE_TIME_ZONE;
  const offer = (saved: StoredAutosave | null) =>
    saved
      ? {
          title: saved.title,
          excerpt: saved.excerpt,
          content: saved.content,
          featuredImageUrl: saved.featuredImageUrl,
          details: saved.details,
          featuredImageAlt: saved.featuredImageAlt,
          savedAt: saved.savedAt.toISOString(),
          savedAtLabel: formatInZone(saved.savedAt, timeZone),
        }
      : null;
  const { emailByDefault } = await readNewsletterSettings(getDb());
  if (!slug)
    return {
      category,
      timeZone,
      post: null,
      newsletter: { emailByDefault, emailed: null },
      autosave: offer(await autosaveToOffer(getDb(), user.id, { category }, null)),
    };
  const post = await getPostBySlug(getDb(), slug);
  if (!post) {
    const moved = await findMovedPost(getDb(), category, slug, user);
    if (moved) throw redirect(`${postPath(moved.category, moved.slug)}/edit`, 301);
    throw data("Oops! Page not found", { status: 404 });
  }
  if (post.category !== category) throw redirect(`${postPath(post.category, post.slug)}/edit`, 301);
  // The form's fields beyond the text, in the shape autosave keeps them (to tell a real change).
  const details = {
    category: post.category,
    slug: post.slug,
    published: post.published,
    featured: post.featured,
    media: post.media.map((m) => ({
      mediaType: m.mediaType,
      mediaUrl: m.mediaUrl,
      caption: m.caption ?? "",
      alt: m.alt ?? "",
      uploadId: m.uploadId ?? undefined,
    })),
    schedule: post.scheduledAt !== null && !post.published,
    publishAt: post.scheduledAt && !post.published ? utcToZonedLocal(post.scheduledAt, timeZone) : "",
  };
  const editable = {
    title: post.title,
    excerpt: post.excerpt ?? "",
    content: post.content,
    featuredImageUrl: post.featuredImageUrl ?? "",
    details,
    featuredImageAlt: post.featuredImageAlt ?? "",
    updatedAt: post.updatedAt,
  };
  const { emailOnPublish, emailed } = await postEmailStatus(getDb(), post.id);
  return {
    category,
    timeZone,
    newsletter: {
      // A saved post starts with its own choice (a draft saved before got the default then).
      emailByDefault: emailOnPublish,
      emailed: emailed ? { queued: emailed.queued, sent: emailed.sent, atLabel: formatInZone(emailed.at, timeZone) } : null,
    },
    autosave: offer(await autosaveToOffer(getDb(), user.id, { postId: post.id }, editable)),
    post: {
      ...details,
      id: post.id,
      title: editable.title,
      excerpt: editable.excerpt,
      content: editable.content,
      featuredImageUrl: editable.featuredImageUrl,
      featuredImageAlt: editable.featuredImageAlt,
      version: post.version,
    },
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  let submission: Submission<unknown> | undefined;
  try {
    const category = parseCategory(params.category);
    if (!category) throw new NotFoundError("Unknown category");
    const user = await getSessionUser(request);
    const slug = slugOf(params);
    const parsed = parseSubmission(await readForm(request, LIMITS.postForm), postFormSchema);
    submission = parsed;
    if (parsed.status !== "success") return invalidSubmission(parsed);
    const input = postInputFromForm(parsed.value, { category, editing: slug !== null }, getEnv().SITE_TIME_ZONE);
    if (slug) {
      const updated = await updatePost(getDb(), user, slug, input);
      return await redirectWithToast(postPath(updated.category, updated.slug), { title: "Post updated successfully!", type: "success" });
    }
    const created = await createPost(getDb(), user, input);
    return await redirectWithToast(postPath(created.category, created.slug), { title: "Post created successfully!", type: "success" });
  } catch (error) {
    return formFailure(error, submission);
  }
}

export function meta({ data: d }: Route.MetaArgs) {
  if (!d) return [{ title: "Page not found" }, { name: "robots", content: "noindex" }];
  return [{ title: d.post ? `Edit Post - ${d.category}` : `Create New Post - ${d.category}` }, { name: "robots", content: "noindex" }];
}

export default function PostFormRoute({ loaderData }: Route.ComponentProps) {
  return (
    <PostForm
      key={loaderData.post?.id ?? "new"}
      category={loaderData.category}
      post={loaderData.post}
      timeZone={loaderData.timeZone}
      newsletter={loaderData.newsletter}
      autosave={loaderData.autosave}
    />
  );
}
