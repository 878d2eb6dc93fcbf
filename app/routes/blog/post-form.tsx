import { redirect } from "react-router";
import { getSessionUser } from "~/features/auth/session.server";
import { PostForm } from "~/features/posts/editor/post-form";
import { warmRenderer } from "~/features/posts/content/post-render.server";
import { requireStaff } from "~/features/auth/guards.server";
import { createPost, findMovedPost, getPostBySlug, updatePost } from "~/features/posts/write/posts.server";
import { postFormSchema, postInputFromForm } from "~/features/posts/write/post-schema";
import { categoryPath, parseCategory, postPath } from "~/lib/categories";
import { parseSubmission, type Submission } from "~/lib/forms";
import { postFiguresShown, postStatistics } from "~/features/analytics/reports.server";
import { getDb } from "~/server/db/client.server";
import { getEnv } from "~/server/env.server";
import { scheduledToast } from "~/features/posts/write/post-schema";
import { NotFoundError } from "~/server/errors.server";
import { readForm } from "~/server/form.server";
import { formFailure, invalidSubmission, throwPageFailure } from "~/server/failure-reply.server";
import { PAGE_NOT_FOUND } from "~/server/pagination.server";
import { newPostEditorState, postEditorState } from "~/features/posts/editor/editor-state.server";
import { LIMITS } from "~/server/limits.server";
import { redirectWithToast } from "~/server/toast.server";
import type { Route } from "./+types/post-form";

/** Create mode when the slug is 'new' or absent (SPEC §2). */
function slugOf(params: { slug?: string }): string | null {
  return params.slug && params.slug !== "new" ? params.slug : null;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const category = parseCategory(params.category);
  if (!category) throwPageFailure(new NotFoundError(PAGE_NOT_FOUND));
  const user = await requireStaff(request);
  warmRenderer();
  const slug = slugOf(params);
  if (category !== params.category) throw redirect(slug ? `${postPath(category, slug)}/edit` : `${categoryPath(category)}/new`, 301);
  if (!slug) return newPostEditorState(getDb(), user, category);
  const post = await getPostBySlug(getDb(), slug);
  if (!post) {
    const moved = await findMovedPost(getDb(), category, slug, user);
    if (moved) throw redirect(`${postPath(moved.category, moved.slug)}/edit`, 301);
    throwPageFailure(new NotFoundError(PAGE_NOT_FOUND));
  }
  if (post.category !== category) throw redirect(`${postPath(post.category, post.slug)}/edit`, 301);
  // The post's own statistics, for those who may read them, once it has been public.
  const figures = post.published && postFiguresShown(user) ? await postStatistics(getDb(), postPath(post.category, post.slug)) : null;
  return { ...(await postEditorState(getDb(), user, post)), figures };
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
    const timeZone = getEnv().SITE_TIME_ZONE;
    const input = postInputFromForm(parsed.value, { category, editing: slug !== null }, timeZone);
    // A post saved to go live later says when, in the site's zone.
    const saved = slug ? await updatePost(getDb(), user, slug, input) : await createPost(getDb(), user, input);
    const title = saved.scheduledAt
      ? scheduledToast(saved.scheduledAt, timeZone)
      : slug
        ? "Post updated successfully!"
        : "Post created successfully!";
    return await redirectWithToast(postPath(saved.category, saved.slug), { title, type: "success" });
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
      figures={"figures" in loaderData ? loaderData.figures : null}
    />
  );
}
