import type { AutosaveStatus } from "./use-autosave";

const TEXT: Record<AutosaveStatus, string> = { idle: "", saving: "Saving…", saved: "Saved", retrying: "Not saved, retrying" };

/** The autosave state, announced politely: 'Saving…', 'Saved' or 'Not saved, retrying'. */
export function AutosaveStatusText({ status }: { status: AutosaveStatus }) {
  return (
    <p
      role="status"
      data-testid="autosave-status"
      className={status === "retrying" ? "text-sm text-destructive" : "text-sm text-muted-foreground"}
    >
      {TEXT[status]}
    </p>
  );
}
