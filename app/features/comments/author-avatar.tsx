import { authorInitials } from "./comment-schema";

/** A remote author's picture is drawn this size (stored at 96 px, for sharp screens). */
const AVATAR_PX = 28;

/**
 * A remote author's (fediverse, Webmention) picture beside their name: our own copy, never the
 * remote address; their initials until it exists or when there is none; nothing for a reader who
 * commented here. Decorative (`alt=""`, `aria-hidden`): the name is next to it.
 */
export function AuthorAvatar({ avatar, remote, name }: { avatar: string | null; remote: boolean; name: string }) {
  if (avatar)
    return (
      <img
        src={avatar}
        alt=""
        width={AVATAR_PX}
        height={AVATAR_PX}
        loading="lazy"
        className="size-7 shrink-0 self-center rounded-full bg-muted object-cover"
      />
    );
  if (!remote) return null;
  return (
    <span
      aria-hidden="true"
      className="inline-flex size-7 shrink-0 items-center justify-center self-center rounded-full bg-muted text-xs font-semibold text-muted-foreground"
    >
      {authorInitials(name)}
    </span>
  );
}
