import { Moon, Sun } from "lucide-react";
import { useEffect } from "react";
import { Button } from "~/components/ui/button";
import { DARK_CLASS, DARK_QUERY, resolveTheme, THEME_STORAGE_KEY, type Theme } from "~/lib/theme";

function storedTheme(): string | null {
  try {
    return localStorage.getItem(THEME_STORAGE_KEY);
  } catch {
    return null;
  }
}

function applyTheme(theme: Theme) {
  document.documentElement.classList.toggle(DARK_CLASS, theme === "dark");
}

/**
 * Switches between light and dark and remembers the choice in this browser. The icon is chosen by
 * CSS from the class the head script set, so the server-rendered button is the same for everyone.
 */
export function ThemeToggle() {
  useEffect(() => {
    const system = window.matchMedia(DARK_QUERY);
    const follow = () => applyTheme(resolveTheme(storedTheme(), system.matches));
    system.addEventListener("change", follow);
    // Another tab changed the choice.
    window.addEventListener("storage", follow);
    // The system (or another tab) may have changed between the head script and now.
    follow();
    return () => {
      system.removeEventListener("change", follow);
      window.removeEventListener("storage", follow);
    };
  }, []);
  const toggle = () => {
    const next: Theme = document.documentElement.classList.contains(DARK_CLASS) ? "light" : "dark";
    applyTheme(next);
    try {
      localStorage.setItem(THEME_STORAGE_KEY, next);
    } catch {
      // Storage blocked: the choice lasts for this page only.
    }
  };
  return (
    <Button type="button" variant="ghost" size="icon" className="shrink-0" aria-label="Toggle theme" onClick={toggle}>
      <Sun aria-hidden className="hidden size-5 dark:block" />
      <Moon aria-hidden className="size-5 dark:hidden" />
    </Button>
  );
}
