import { Button } from "~/components/ui/button";
import { AUTOSAVE_URL } from "./use-autosave";

interface Props {
  /** When the unsaved text was saved, already formatted for people, and as an ISO string. */
  savedAtLabel: string;
  savedAt: string;
  postId: string | undefined;
  category: string;
  /** Where the autosave lives (the posts' endpoint unless another editor names its own). */
  url?: string;
  onRestore: () => void;
  onDiscard: () => void;
}

/** Offered when the editor opens with an autosave newer than the saved post. */
export function AutosaveRestore({ savedAtLabel, savedAt, postId, category, url = AUTOSAVE_URL, onRestore, onDiscard }: Props) {
  function discard() {
    const body = new FormData();
    body.set("intent", "discard");
    if (postId) body.set("postId", postId);
    else if (category) body.set("category", category);
    void fetch(url, { method: "POST", body, keepalive: true });
    onDiscard();
  }
  return (
    <div
      role="region"
      aria-label="Unsaved changes"
      className="flex flex-wrap items-center gap-3 rounded-md border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950 dark:bg-amber-950/40 dark:text-amber-50"
    >
      <p className="flex-1">
        You have unsaved changes from <time dateTime={savedAt}>{savedAtLabel}</time>.
      </p>
      <Button type="button" size="sm" onClick={onRestore}>
        Restore unsaved changes
      </Button>
      <Button type="button" size="sm" variant="outline" onClick={discard}>
        Discard
      </Button>
    </div>
  );
}
