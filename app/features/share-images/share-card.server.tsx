import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

/** Open Graph's recommended card size; every share image is exactly this. */
export const SHARE_IMAGE_WIDTH = 1200;
export const SHARE_IMAGE_HEIGHT = 630;
export const SHARE_IMAGE_TYPE = "image/png";

/**
 * Bump when the drawing changes: it is part of every image's hash, so each page's image URL changes
 * with it and no reader keeps the old picture under an immutable URL.
 */
const DESIGN_VERSION = 1;

/** What a share image shows. A category card has no date. */
export interface ShareCard {
  title: string;
  /** The line above the title: the post's category, or "7 Fs Framework" on a category page. */
  eyebrow: string;
  siteName: string;
  /** Already formatted for readers (longDate), or null. */
  date: string | null;
}

/** The image's name: a hash of everything drawn, so a changed title (or site name) is a new URL. */
export function shareCardHash(card: ShareCard): string {
  return createHash("sha256")
    .update(JSON.stringify([DESIGN_VERSION, card.title, card.eyebrow, card.siteName, card.date]))
    .digest("hex")
    .slice(0, 24);
}

/** The alt text of a card: the words it shows. */
export function shareCardAlt(card: ShareCard): string {
  return [card.title, card.eyebrow, card.siteName, card.date].filter(Boolean).join(" · ");
}

// Inter from @fontsource (WOFF: satori reads TTF, OTF and WOFF, not WOFF2), Latin and Latin Extended,
// read from node_modules so the server never fetches a font.
const FONT_FILES = [
  { file: "inter-latin-400-normal.woff", weight: 400 },
  { file: "inter-latin-ext-400-normal.woff", weight: 400 },
  { file: "inter-latin-700-normal.woff", weight: 700 },
  { file: "inter-latin-ext-700-normal.woff", weight: 700 },
] as const;

type SatoriFont = { name: string; data: Buffer; weight: 400 | 700; style: "normal" };

let fonts: Promise<SatoriFont[]> | null = null;

function loadFonts(): Promise<SatoriFont[]> {
  const require = createRequire(import.meta.url);
  fonts ??= Promise.all(
    FONT_FILES.map(async ({ file, weight }) => ({
      name: "Inter",
      data: await readFile(require.resolve(`@fontsource/inter/files/${file}`)),
      weight,
      style: "normal" as const,
    })),
  ).catch((error: unknown) => {
    fonts = null;
    throw error;
  });
  return fonts;
}

/** Long titles get a smaller size so they fit in four lines or fewer (satori then ellipsizes). */
function titleSize(title: string): number {
  if (title.length <= 40) return 72;
  if (title.length <= 80) return 60;
  return 48;
}

const PADDING_X = 80;
const PADDING_Y = 72;

function Card({ card }: { card: ShareCard }) {
  return (
    <div
      style={{
        width: SHARE_IMAGE_WIDTH,
        height: SHARE_IMAGE_HEIGHT,
        display: "flex",
        backgroundColor: "#0f172a",
        backgroundImage: "linear-gradient(135deg, #0f172a 0%, #1e3a8a 100%)",
        color: "#f8fafc",
        fontFamily: "Inter",
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
          <div style={{ display: "flex", fontSize: 30, fontWeight: 700, color: "#93c5fd", letterSpacing: 1 }}>{card.eyebrow}</div>
          <div
            style={{
              display: "block",
              marginTop: 28,
              fontSize: titleSize(card.title),
              fontWeight: 700,
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

/** Draws a card as a 1200×630 PNG (satori lays it out as SVG with the text as paths; resvg rasterizes it). */
export async function renderShareCard(card: ShareCard): Promise<Buffer> {
  // satori and resvg (~30 MB resident together) are loaded on the first card drawn, not at start-up.
  const [{ default: satori }, { Resvg }] = await Promise.all([import("satori"), import("@resvg/resvg-js")]);
  const svg = await satori(<Card card={card} />, { width: SHARE_IMAGE_WIDTH, height: SHARE_IMAGE_HEIGHT, fonts: await loadFonts() });
  const png = new Resvg(svg, { fitTo: { mode: "width", value: SHARE_IMAGE_WIDTH }, font: { loadSystemFonts: false } }).render().asPng();
  return png;
}
