import { elementOf } from "~/lib/dom";
import { DARK_CLASS, DARK_QUERY, resolveTheme, THEME_STORAGE_KEY, type Theme } from "~/lib/theme";

/** Marks the 'Toggle theme' button (theme-toggle.tsx). */
export const THEME_TOGGLE_ATTRIBUTE = "data-theme-toggle";

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

function toggleTheme() {
  const next: Theme = document.documentElement.classList.contains(DARK_CLASS) ? "light" : "dark";
  applyTheme(next);
  try {
    localStorage.setItem(THEME_STORAGE_KEY, next);
  } catch {
    // Storage blocked: the choice lasts for this page only.
  }
}

/**
 * The theme toggle and following the system, for every page (app/enhance): the head script
 * (lib/theme.ts) chose the theme before the first paint; this keeps it in step afterwards.
 */
export function enhanceThemeToggle(): void {
  const system = window.matchMedia(DARK_QUERY);
  const follow = () => applyTheme(resolveTheme(storedTheme(), system.matches));
  system.addEventListener("change", follow);
  // Another tab changed the choice.
  window.addEventListener("storage", follow);
  // The system (or another tab) may have changed between the head script and now.
  follow();
  document.addEventListener("click", (event) => {
    if (elementOf(event.target)?.closest(`[${THEME_TOGGLE_ATTRIBUTE}]`)) toggleTheme();
  });
}
