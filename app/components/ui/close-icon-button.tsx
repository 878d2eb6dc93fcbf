import { XIcon } from "lucide-react";
import type * as React from "react";

/** The × in the top right corner of a native modal <dialog> (the sheet, the thank-you dialog), named 'Close'. */
export function CloseIconButton(props: React.ComponentProps<"button">) {
  return (
    <button
      type="button"
      {...props}
      className="absolute top-4 right-4 rounded-xs opacity-70 transition-opacity hover:opacity-100 focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
    >
      <XIcon aria-hidden className="size-4" />
      <span className="sr-only">Close</span>
    </button>
  );
}
