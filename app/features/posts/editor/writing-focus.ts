import { useEffect, useState } from "react";

/**
 * Distraction-free writing: while on, the page's root carries data-writing-focus, which hides the admin
 * shell (sidebar, top bar, banner), the Markdown toolbar and every field but the title and content
 * (app.css). Esc leaves it; so does leaving the page.
 */
export function useWritingFocus(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(false);
  useEffect(() => {
    if (!on) return;
    const root = document.documentElement;
    root.dataset.writingFocus = "on";
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") setOn(false);
    };
    window.addEventListener("keydown", onKey);
    return () => {
      delete root.dataset.writingFocus;
      window.removeEventListener("keydown", onKey);
    };
  }, [on]);
  return [on, setOn];
}
