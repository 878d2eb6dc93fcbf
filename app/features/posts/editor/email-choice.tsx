import { useId } from "react";
import { Link } from "react-router";
import { NEWSLETTER_TEXT } from "~/features/subscriptions/newsletter-settings";

export interface PostNewsletter {
  /** The choice the form starts with (newsletter settings). */
  emailByDefault: boolean;
  /** Set once the post went to its subscribers. */
  emailed: { queued: number; sent: number; atLabel: string } | null;
}

interface Props {
  newsletter: PostNewsletter;
  /** The post goes live with this save (published now or scheduled) and was not live before. */
  goesLive: boolean;
  emailSubscribers: boolean;
  onChange: (emailSubscribers: boolean) => void;
  /** Edit mode: the post's id, for 'Preview email'. */
  postId: string | undefined;
  /** The editor's address, to come back to from the preview. */
  editPath: string;
}

const subscribersLabel = (n: number) => `${n.toLocaleString("en-US")} subscriber${n === 1 ? "" : "s"}`;

/**
 * How the post goes live — "Publish" or "Publish and email subscribers" (scheduled posts carry the
 * same choice) — until it has been emailed; then when and to how many it went. A post is emailed
 * at most once, so the choice is not offered again.
 */
export function EmailChoice({ newsletter, goesLive, emailSubscribers, onChange, postId, editPath }: Props) {
  const id = useId();
  const { emailed } = newsletter;
  const preview = postId ? (
    <Link
      to={`/admin/posts/${postId}/email?from=${encodeURIComponent(editPath)}`}
      className="text-sm font-medium text-primary underline underline-offset-4"
    >
      Preview email
    </Link>
  ) : null;
  if (emailed) {
    return (
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
        <p className="text-sm">
          Emailed to {subscribersLabel(emailed.queued)} on {emailed.atLabel}.
          {emailed.sent < emailed.queued ? ` ${emailed.sent.toLocaleString("en-US")} sent so far.` : null}
        </p>
        {preview}
      </div>
    );
  }
  if (!goesLive) return preview ? <div>{preview}</div> : null;
  return (
    <fieldset className="space-y-2 rounded-md border p-4">
      <legend className="px-1 text-sm font-medium">When it goes live</legend>
      {(
        [
          [false, NEWSLETTER_TEXT.publish],
          [true, NEWSLETTER_TEXT.publishAndEmail],
        ] as const
      ).map(([value, label]) => (
        <div key={label} className="flex items-center gap-2">
          <input
            type="radio"
            id={`${id}-${value ? "email" : "publish"}`}
            name="emailSubscribers"
            value={value ? "yes" : "no"}
            checked={emailSubscribers === value}
            onChange={() => onChange(value)}
            className="size-4 accent-primary"
          />
          <label htmlFor={`${id}-${value ? "email" : "publish"}`} className="text-sm">
            {label}
          </label>
        </div>
      ))}
      {preview}
    </fieldset>
  );
}
