import { mountVerification, verificationConfigOf } from "~/features/verification/verification-widget";
import { COMMENT_VERIFICATION_ATTRIBUTE } from "./comment-form-dom";

const mounted = new WeakMap<HTMLFormElement, () => void>();

/** Mounts the proof-of-work widget in the form (once); returns what removes it. */
export function mountCommentVerification(form: HTMLFormElement): () => void {
  const existing = mounted.get(form);
  if (existing) return existing;
  const container = form.querySelector<HTMLElement>(`[${COMMENT_VERIFICATION_ATTRIBUTE}]`);
  const config = verificationConfigOf(form);
  if (!container || !config) return () => undefined;
  const unmount = mountVerification(container, config, () => undefined);
  const remove = () => {
    mounted.delete(form);
    unmount();
  };
  mounted.set(form, remove);
  return remove;
}

/**
 * The comment form's one enhancement: the proof-of-work widget, mounted when the reader first
 * reaches the form (its code is fetched then, not with the page). Without it the form still posts;
 * the comment then waits for a moderator.
 */
export function enhanceCommentForm(form: HTMLFormElement): () => void {
  let unmount: (() => void) | undefined;
  const start = () => {
    form.removeEventListener("focusin", start);
    unmount = mountCommentVerification(form);
  };
  form.addEventListener("focusin", start);
  return () => {
    form.removeEventListener("focusin", start);
    unmount?.();
  };
}
