import { XIcon } from "lucide-react";
import { useEffect, useId, useRef, type ReactNode } from "react";

/**
 * A panel sliding over the page from the right, on the browser's own modal <dialog>: focus moves
 * into it and stays there, the page behind is inert, Escape closes it. Its content is rendered only
 * while it is open. Replaces Radix's Dialog (with its focus and scroll guards) in the public header.
 */
export function Sheet({
  open,
  onOpenChange,
  title,
  description,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    else if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    // A click on the backdrop reaches the <dialog> itself; the keyboard closes it with Escape.
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      onClose={() => onOpenChange(false)}
      onClick={(event) => {
        if (event.target === event.currentTarget) onOpenChange(false);
      }}
      className="fixed inset-y-0 right-0 left-auto m-0 h-full max-h-none w-3/4 max-w-none border-l bg-background p-0 text-foreground shadow-lg backdrop:bg-black/50 sm:max-w-sm"
    >
      {open ? (
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
          <button
            type="button"
            onClick={() => onOpenChange(false)}
            className="absolute top-4 right-4 rounded-xs opacity-70 transition-opacity hover:opacity-100 focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
          >
            <XIcon aria-hidden className="size-4" />
            <span className="sr-only">Close</span>
          </button>
        </div>
      ) : null}
    </dialog>
  );
}
