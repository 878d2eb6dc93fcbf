import interBold from "@fontsource/inter/files/inter-latin-700-normal.woff2?url";
import interRegular from "@fontsource/inter/files/inter-latin-400-normal.woff2?url";
import loraBold from "@fontsource/lora/files/lora-latin-700-normal.woff2?url";
import openSansBold from "@fontsource/open-sans/files/open-sans-latin-700-normal.woff2?url";
import openSansRegular from "@fontsource/open-sans/files/open-sans-latin-400-normal.woff2?url";
import playfairBold from "@fontsource/playfair-display/files/playfair-display-latin-700-normal.woff2?url";
import sourceSansBold from "@fontsource/source-sans-3/files/source-sans-3-latin-700-normal.woff2?url";
import sourceSansRegular from "@fontsource/source-sans-3/files/source-sans-3-latin-400-normal.woff2?url";
import spaceGroteskBold from "@fontsource/space-grotesk/files/space-grotesk-latin-700-normal.woff2?url";
import { accentPalette, type ThemeTokens } from "~/lib/accent-colour";
import { FONT_PAIRINGS, fontStack, type FontPairingId } from "~/lib/font-pairings";
import type { SiteSettings } from "./settings-schema";

/** The brand as every page's <head> carries it: CSS custom properties and @font-face rules, and the fonts to preload. */
export interface BrandHead {
  css: string;
  fontPreloads: string[];
}

type FontFile = { weight: 400 | 700; url: string };

/**
 * The WOFF2 files each pairing's families use (Latin subset): headings at 700, text at 400 and 700
 * (500 and 600 resolve to those, as CSS font matching does). Vite copies each file to /assets under
 * a hashed, immutable name; only the chosen pairing's are ever named in a page.
 */
const FONT_FILES: Record<Exclude<FontPairingId, "system">, { heading: FontFile[]; body: FontFile[] }> = {
  modern: {
    heading: [{ weight: 700, url: spaceGroteskBold }],
    body: [
      { weight: 400, url: interRegular },
      { weight: 700, url: interBold },
    ],
  },
  editorial: {
    heading: [{ weight: 700, url: playfairBold }],
    body: [
      { weight: 400, url: sourceSansRegular },
      { weight: 700, url: sourceSansBold },
    ],
  },
  classic: {
    heading: [{ weight: 700, url: loraBold }],
    body: [
      { weight: 400, url: openSansRegular },
      { weight: 700, url: openSansBold },
    ],
  },
};

/** The characters of @fontsource's "latin" subset: anything else is drawn by the fallback fonts. */
const LATIN_RANGE =
  "U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD";

function fontFace(family: string, { weight, url }: FontFile): string {
  return `@font-face{font-family:"${family}";font-style:normal;font-weight:${weight};font-display:swap;src:url(${url}) format("woff2");unicode-range:${LATIN_RANGE}}`;
}

function tokens(t: ThemeTokens): string {
  return `--primary:${t.primary};--primary-foreground:${t.primaryForeground};--ring:${t.ring};--accent:${t.accent}`;
}

/** The accent's tokens for both themes (app.css's `.dark` block is overridden by the more specific `:root.dark`). */
function accentCss(hex: string): string {
  const { light, dark } = accentPalette(hex);
  return `:root{${tokens(light)}}:root.dark{${tokens(dark)}}`;
}

function fontCss(pairing: Exclude<FontPairingId, "system">): { css: string; preloads: string[] } {
  const { heading, body } = FONT_PAIRINGS[pairing];
  const files = FONT_FILES[pairing];
  if (!heading || !body) return { css: "", preloads: [] };
  const faces = [...files.heading.map((file) => fontFace(heading.family, file)), ...files.body.map((file) => fontFace(body.family, file))];
  return {
    css: `${faces.join("")}:root{--font-body:${fontStack(body)};--font-heading:${fontStack(heading)}}`,
    preloads: [...files.heading, ...files.body].map((file) => file.url),
  };
}

let last: { key: string; head: BrandHead | null } | undefined;

/**
 * The brand's CSS, or null for the theme's own colours and the system fonts (nothing added to the
 * page). Values are validated when saved and when read (settings-schema.ts), so they are safe in a
 * <style> element. Remembered for the last settings seen: every page of a site asks for the same.
 */
export function brandHead(site: Pick<SiteSettings, "accentColor" | "fontPairing">): BrandHead | null {
  const key = `${site.accentColor}|${site.fontPairing}`;
  if (last?.key === key) return last.head;
  const fonts = site.fontPairing === "system" ? null : fontCss(site.fontPairing);
  const css = `${site.accentColor ? accentCss(site.accentColor) : ""}${fonts?.css ?? ""}`;
  const head = css ? { css, fontPreloads: fonts?.preloads ?? [] } : null;
  last = { key, head };
  return head;
}
