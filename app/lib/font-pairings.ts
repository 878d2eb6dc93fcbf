/**
 * The font pairings shipped with the site (docs/decisions/0071-brand-accent-and-fonts.md): a family
 * for headings and one for text, each self-hosted from its @fontsource package (Latin subset,
 * WOFF2 on the site, WOFF in the share images). "system" is the default: each visitor's own
 * interface font, nothing downloaded.
 */

export const FONT_PAIRING_IDS = ["system", "modern", "editorial", "classic"] as const;
export type FontPairingId = (typeof FONT_PAIRING_IDS)[number];

export const DEFAULT_FONT_PAIRING: FontPairingId = "system";

/** One family of a pairing: its CSS name and its @fontsource package (`@fontsource/<package>`). */
export interface FontFamily {
  family: string;
  package: string;
  /** What the page shows until the file has arrived, and for characters outside the Latin subset. */
  fallback: string;
}

export interface FontPairing {
  label: string;
  heading: FontFamily | null;
  body: FontFamily | null;
}

/** The system stack the site has always used; the last resort of every pairing. */
export const SYSTEM_SANS = 'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
const SYSTEM_SERIF = 'ui-serif, Georgia, Cambria, "Times New Roman", Times, serif';

export const FONT_PAIRINGS: Record<FontPairingId, FontPairing> = {
  system: { label: "System fonts: each visitor's own interface font, nothing to download (the default)", heading: null, body: null },
  modern: {
    label: "Modern: Space Grotesk headings, Inter text",
    heading: { family: "Space Grotesk", package: "space-grotesk", fallback: SYSTEM_SANS },
    body: { family: "Inter", package: "inter", fallback: SYSTEM_SANS },
  },
  editorial: {
    label: "Editorial: Playfair Display headings, Source Sans 3 text",
    heading: { family: "Playfair Display", package: "playfair-display", fallback: SYSTEM_SERIF },
    body: { family: "Source Sans 3", package: "source-sans-3", fallback: SYSTEM_SANS },
  },
  classic: {
    label: "Classic: Lora headings, Open Sans text",
    heading: { family: "Lora", package: "lora", fallback: SYSTEM_SERIF },
    body: { family: "Open Sans", package: "open-sans", fallback: SYSTEM_SANS },
  },
};

/** A CSS font-family value: the family first, then its fallbacks. */
export function fontStack(font: FontFamily): string {
  return `"${font.family}", ${font.fallback}`;
}
