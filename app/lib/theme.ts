/** The reader's choice, kept in their browser only: the server renders the same page for everyone. */
export const THEME_STORAGE_KEY = "theme";
export const DARK_CLASS = "dark";
export const DARK_QUERY = "(prefers-color-scheme: dark)";

export type Theme = "light" | "dark";

/** A stored choice wins; without one the system setting decides. */
export function resolveTheme(stored: string | null, systemDark: boolean): Theme {
  if (stored === "light" || stored === "dark") return stored;
  return systemDark ? "dark" : "light";
}

/**
 * Runs in <head> before the body is parsed, so the first paint already has the right theme (no
 * flash) while the cached HTML stays identical for every visitor. Kept tiny and self-contained:
 * it mirrors resolveTheme. Storage may be blocked (privacy modes): then the system setting applies.
 */
export const THEME_SCRIPT = `(function(){var d=document.documentElement,s=null;try{s=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)})}catch(e){}var t=s==="light"||s==="dark"?s:(window.matchMedia&&window.matchMedia(${JSON.stringify(DARK_QUERY)}).matches?"dark":"light");d.classList.toggle(${JSON.stringify(DARK_CLASS)},t==="dark")})()`;
