import { useId, type ReactNode } from "react";
import { CloseIconButton } from "./close-icon-button";
import { SHEET_CLOSE_ATTRIBUTE, SHEET_TRIGGER_ATTRIBUTE } from "./sheet-behavior";

/** The attributes of the button that opens the sheet `id`. */
export function sheetTriggerProps(id: string) {
  return { "aria-haspopup": "dialog", "aria-expanded": false, "aria-controls": id, [SHEET_TRIGGER_ATTRIBUTE]: "" } as const;
}

/**
 * A panel sliding over the page from the right, on the browser's own modal <dialog>: focus moves
 * into it and stays there, the page behind is inert, Escape closes it. Only the markup: its trigger
 * (sheetTriggerProps) opens it through sheet-behavior.ts, the page's enhancement script, with React
 * or without it. Replaces Radix's Dialog (with its focus and scroll guards) in the public header.
 */
export function Sheet({ id, title, description, children }: { id: string; title: string; description: string; children: ReactNode }) {
  const titleId = useId();
  const descriptionId = useId();
  return (
    <dialog
      id={id}
      data-sheet=""
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      className="fixed inset-y-0 right-0 left-auto m-0 h-full max-h-none w-3/4 max-w-none border-l bg-background p-0 text-foreground shadow-lg backdrop:bg-black/50 sm:max-w-sm"
    >
      <div className="relative flex h-full flex-col gap-4 overflow-y-auto">
        <div className="flex flex-col gap-1.5 p-4">
          <h2 id={titleId} className="font-semibold text-foreground">
            {title}
          </h2>
          <p id={descriptionId} className="text-sm text-muted-foreground">
            {description}
          </p>
        </div>
        {children}
        <CloseIconButton {...{ [SHEET_CLOSE_ATTRIBUTE]: "" }} />
      </div>
    </dialog>
  );
}
