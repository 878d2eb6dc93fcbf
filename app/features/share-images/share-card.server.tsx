import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { accentPalette } from "~/lib/accent-colour";
import { FONT_PAIRINGS, type FontPairingId } from "~/lib/font-pairings";
import { logger } from "~/server/logger.server";
import { drawCardInWorker, plainCardTree, type CardFont } from "./card-worker.server";
import { systemFontFinder } from "./system-fonts.server";

/** Open Graph's recommended card size; every share image is exactly this. */
export const SHARE_IMAGE_WIDTH = 1200;
export const SHARE_IMAGE_HEIGHT = 630;
export const SHARE_IMAGE_TYPE = "image/png";

/**
 * Bump when the drawing changes: it is part of every image's hash, so each page's image URL changes
 * with it and no reader keeps the old picture under an immutable URL.
 */
const DESIGN_VERSION = 2;

/** What a share image shows. A category card has no date. */
export interface ShareCard {
  title: string;
  /** The line above the title: the post's category, or "7 Fs Framework" on a category page. */
  eyebrow: string;
  siteName: string;
  /** Already formatted for readers (longDate), or null. */
  date: string | null;
  /** The site's accent colour ("#rrggbb"), or "" for the theme's blue. */
  accentColor: string;
  /** The site's font pairing: its heading font draws the title. */
  fontPairing: FontPairingId;
}

/** What a card takes from the site's settings. */
export type CardSite = Pick<ShareCard, "siteName" | "accentColor" | "fontPairing">;

/**
 * The image's name: a hash of everything drawn, so a changed title, site name or brand is a new URL.
 * The brand counts only once it differs from the default, so a site with the default look keeps
 * the addresses its cards always had.
 */
export function shareCardHash(card: ShareCard): string {
  const brand = card.accentColor || card.fontPairing !== "system" ? [card.accentColor, card.fontPairing] : [];
  return createHash("sha256")
    .update(JSON.stringify([DESIGN_VERSION, card.title, card.eyebrow, card.siteName, card.date, ...brand]))
    .digest("hex")
    .slice(0, 24);
}

/** The alt text of a card: the words it shows. */
export function shareCardAlt(card: ShareCard): string {
  return [card.title, card.eyebrow, card.siteName, card.date].filter(Boolean).join(" · ");
}

// Inter from @fontsource (WOFF: satori reads TTF, OTF and WOFF, not WOFF2) in every subset it has —
// Latin, Latin Extended, Cyrillic, Greek, Vietnamese — read from node_modules so the server never
// fetches a font. Each subset is a family of its own (satori keeps one font per family and weight),
// listed in fontFamily: for each character satori takes the first family that has it.
const SUBSETS = ["latin", "latin-ext", "cyrillic", "cyrillic-ext", "greek", "greek-ext", "vietnamese"] as const;
const FONT_FILES = SUBSETS.flatMap((subset) =>
  ([400, 700] as const).map((weight) => ({ subset, file: `inter-${subset}-${weight}-normal.woff`, weight })),
);

/** Reads a font once; a failed read is forgotten so the next card tries again. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | null = null;
  return () => {
    loaded ??= load().catch((error: unknown) => {
      loaded = null;
      throw error;
    });
    return loaded;
  };
}

const loadFonts = once(() => {
  const require = createRequire(import.meta.url);
  return Promise.all(
    FONT_FILES.map(async ({ subset, file, weight }) => ({
      name: `Inter ${subset}`,
      data: await readFile(require.resolve(`@fontsource/inter/files/${file}`)),
      weight,
      style: "normal" as const,
    })),
  );
});

/** Each pairing's heading font (Latin, bold, WOFF), read once when a card first needs it. */
const headingFonts = new Map<FontPairingId, () => Promise<CardFont[]>>();

function headingFont(pairing: FontPairingId): Promise<CardFont[]> {
  const heading = FONT_PAIRINGS[pairing].heading;
  if (!heading) return Promise.resolve([]);
  let load = headingFonts.get(pairing);
  if (!load) {
    load = once(async () => {
      const require = createRequire(import.meta.url);
      const file = require.resolve(`@fontsource/${heading.package}/files/${heading.package}-latin-700-normal.woff`);
      return [{ name: heading.family, data: await readFile(file), weight: 700 as const, style: "normal" as const }];
    });
    headingFonts.set(pairing, load);
  }
  return load();
}

const findSystemFonts = once(() => systemFontFinder());
const systemFonts = new Map<string, () => Promise<CardFont[]>>();

/**
 * Scripts Inter lacks (CJK, Arabic, Hebrew, Devanagari…): satori asks for them by language code;
 * they are drawn with the fonts installed on the system when there are some (fonts-noto-*), else
 * left out — a card is always drawn.
 */
async function additionalFonts(languageCode: string): Promise<CardFont[]> {
  let load = systemFonts.get(languageCode);
  if (!load) {
    load = once(async () => {
      const found = (await findSystemFonts())(languageCode);
      return Promise.all(
        found.map(async ({ file, weight }) => ({
          name: `system-${languageCode}`,
          data: await readFile(file),
          weight,
          style: "normal" as const,
        })),
      );
    });
    systemFonts.set(languageCode, load);
  }
  return load().catch((error: unknown) => {
    logger.warn({ err: error, languageCode }, "share image: system font unreadable");
    return [];
  });
}

/** Long titles get a smaller size so they fit in four lines or fewer (satori then ellipsizes). */
function titleSize(title: string): number {
  if (title.length <= 40) return 72;
  if (title.length <= 80) return 60;
  return 48;
}

/** The theme's blues, or the accent's tones (the deep end of the gradient, the line above the title). */
function cardColours(accentColor: string): { deep: string; eyebrow: string } {
  return accentColor ? accentPalette(accentColor).card : { deep: "#1e3a8a", eyebrow: "#93c5fd" };
}

const PADDING_X = 80;
const PADDING_Y = 72;

function Card({ card }: { card: ShareCard }) {
  const colours = cardColours(card.accentColor);
  const inter = SUBSETS.map((subset) => `"Inter ${subset}"`).join(", ");
  const heading = FONT_PAIRINGS[card.fontPairing].heading;
  return (
    <div
      style={{
        width: SHARE_IMAGE_WIDTH,
        height: SHARE_IMAGE_HEIGHT,
        display: "flex",
        backgroundColor: "#0f172a",
        backgroundImage: `linear-gradient(135deg, #0f172a 0%, ${colours.deep} 100%)`,
        color: "#f8fafc",
        fontFamily: inter,
      }}
    >
      <div
        style={{
          display: "flex",
          flexDirection: "column",
          justifyContent: "space-between",
          position: "absolute",
          top: PADDING_Y,
          left: PADDING_X,
          width: SHARE_IMAGE_WIDTH - 2 * PADDING_X,
          height: SHARE_IMAGE_HEIGHT - 2 * PADDING_Y,
        }}
      >
        <div style={{ display: "flex", flexDirection: "column" }}>
          <div style={{ display: "flex", fontSize: 30, fontWeight: 700, color: colours.eyebrow, letterSpacing: 1 }}>{card.eyebrow}</div>
          <div
            style={{
              display: "block",
              marginTop: 28,
              fontSize: titleSize(card.title),
              fontWeight: 700,
              fontFamily: heading ? `"${heading.family}", ${inter}` : inter,
              lineHeight: 1.15,
              lineClamp: 4,
              overflow: "hidden",
            }}
          >
            {card.title}
          </div>
        </div>
        <div style={{ display: "flex", justifyContent: "space-between", alignItems: "flex-end", fontSize: 30, color: "#cbd5e1" }}>
          <div style={{ display: "flex", fontWeight: 700, color: "#f8fafc" }}>{card.siteName}</div>
          {card.date ? <div style={{ display: "flex" }}>{card.date}</div> : null}
        </div>
      </div>
    </div>
  );
}

/**
 * Draws a card as a 1200×630 PNG (satori lays it out as SVG with the text as paths; resvg rasterizes
 * it), in a short-lived worker thread (card-worker.server.ts): the fonts are read here, once.
 */
export async function renderShareCard(card: ShareCard): Promise<Buffer> {
  return drawCardInWorker({
    tree: plainCardTree(<Card card={card} />),
    width: SHARE_IMAGE_WIDTH,
    height: SHARE_IMAGE_HEIGHT,
    fonts: [...(await headingFont(card.fontPairing)), ...(await loadFonts())],
    additionalFonts: async (languageCode) => (languageCode === "emoji" ? [] : additionalFonts(languageCode)),
  });
}
