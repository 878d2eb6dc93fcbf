import { Moon, Sun } from "lucide-react";
import { Button } from "~/components/ui/button";
import { THEME_TOGGLE_ATTRIBUTE } from "./theme-toggle-behavior";

/**
 * Switches between light and dark and remembers the choice in this browser (theme-toggle-behavior.ts,
 * with React or without it). The icon is chosen by CSS from the class the head script set, so the
 * server-rendered button is the same for everyone.
 */
export function ThemeToggle() {
  return (
    <Button type="button" variant="ghost" size="icon" className="shrink-0" aria-label="Toggle theme" {...{ [THEME_TOGGLE_ATTRIBUTE]: "" }}>
      <Sun aria-hidden className="hidden size-5 dark:block" />
      <Moon aria-hidden className="size-5 dark:hidden" />
    </Button>
  );
}
