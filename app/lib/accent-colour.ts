/**
 * The site's accent colour: the tokens it becomes in the light and the dark theme, and the WCAG 2.x
 * contrast of every pair of colours it takes part in (docs/decisions/0071-brand-accent-and-fonts.md).
 * Pure arithmetic (sRGB, OKLab/OKLCH after Björn Ottosson, WCAG relative luminance), so the same
 * check runs in the settings form and on the server; checked against Color.js in the unit tests.
 */

/** What WCAG AA asks of text: 4.5:1. */
export const MIN_CONTRAST = 4.5;

/** A colour as the settings store it: "#" and six lower-case hex digits. */
export const HEX_COLOUR = /^#[0-9a-f]{6}$/i;

export type Oklch = readonly [l: number, c: number, h: number];
type Rgb = readonly [number, number, number];

/**
 * The theme's colours the accent meets, as app/app.css defines them (a unit test reads app.css and
 * compares). `tint` is the pale `--accent` surface (the hero's gradient starts on it); its hue and
 * the tones below follow the owner's colour.
 */
export const THEME_COLOURS = {
  light: {
    primary: [0.45, 0.16, 255],
    background: [1, 0, 0],
    lightText: [0.985, 0, 0],
    darkText: [0.145, 0, 0],
  },
  dark: {
    background: [0.16, 0.005, 255],
    card: [0.21, 0.008, 255],
    lightText: [0.96, 0, 0],
    darkText: [0.18, 0.02, 255],
  },
} as const satisfies Record<string, Record<string, Oklch>>;

/**
 * Lightness and chroma of the derived tones, as the default theme pairs them (light primary
 * oklch(0.45 0.16 255), dark primary oklch(0.78 0.12 255)): the dark theme shows the accent at a
 * fixed lightness (a single colour cannot reach 4.5:1 as text against both white and the dark
 * background: at best about 4.4:1), its chroma cut by a quarter.
 */
const TONES = {
  darkPrimary: { l: 0.78, chroma: 0.75 },
  lightRing: { l: 0.55, chroma: 1 },
  darkRing: { l: 0.7, chroma: 0.75 },
  lightTint: { l: 0.95, maxChroma: 0.02 },
  darkTint: { l: 0.3, maxChroma: 0.04 },
  cardDeep: { l: 0.38, maxChroma: 0.15 },
} as const;

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

function toLinear(channel: number): number {
  return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
}

function fromLinear(channel: number): number {
  return channel <= 0.0031308 ? channel * 12.92 : 1.055 * channel ** (1 / 2.4) - 0.055;
}

/** "#rrggbb" → sRGB channels 0..1. */
function hexToRgb(hex: string): Rgb {
  const n = Number.parseInt(hex.slice(1), 16);
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
}

function rgbToHex(rgb: Rgb): string {
  return `#${rgb
    .map((v) =>
      Math.round(clamp01(v) * 255)
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")}`;
}

/** sRGB (gamma-encoded, 0..1) → OKLCH; the hue of a grey is 0. */
export function rgbToOklch(rgb: Rgb): Oklch {
  const [r, g, b] = [toLinear(rgb[0]), toLinear(rgb[1]), toLinear(rgb[2])];
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  const L = 0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s;
  const A = 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s;
  const B = 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s;
  const c = Math.hypot(A, B);
  const h = c < 1e-4 ? 0 : (Math.atan2(B, A) * 180) / Math.PI;
  return [L, c, h < 0 ? h + 360 : h];
}

/** OKLCH → sRGB (gamma-encoded), unclamped: a channel outside 0..1 means out of gamut. */
export function oklchToRgb([L, c, h]: Oklch): Rgb {
  const A = c * Math.cos((h * Math.PI) / 180);
  const B = c * Math.sin((h * Math.PI) / 180);
  const l = (L + 0.3963377774 * A + 0.2158037573 * B) ** 3;
  const m = (L - 0.1055613458 * A - 0.0638541728 * B) ** 3;
  const s = (L - 0.0894841775 * A - 1.291485548 * B) ** 3;
  return [
    fromLinear(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s),
    fromLinear(-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s),
    fromLinear(-0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s),
  ];
}

const inGamut = (rgb: Rgb) => rgb.every((v) => v >= -1e-6 && v <= 1 + 1e-6);

/**
 * The sRGB colour of an OKLCH one, its chroma reduced (lightness and hue kept) until it fits —
 * a colour a browser shows exactly as measured here.
 */
export function oklchToHex(colour: Oklch): string {
  const [l, c, h] = colour;
  if (inGamut(oklchToRgb(colour))) return rgbToHex(oklchToRgb(colour));
  let low = 0;
  let high = c;
  for (let i = 0; i < 24; i++) {
    const mid = (low + high) / 2;
    if (inGamut(oklchToRgb([l, mid, h]))) low = mid;
    else high = mid;
  }
  return rgbToHex(oklchToRgb([l, low, h]));
}

/** WCAG 2.x relative luminance of an sRGB colour. */
function luminance(rgb: Rgb): number {
  const [r, g, b] = [toLinear(clamp01(rgb[0])), toLinear(clamp01(rgb[1])), toLinear(clamp01(rgb[2]))];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2.x contrast ratio of two "#rrggbb" colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [la, lb] = [luminance(hexToRgb(a)), luminance(hexToRgb(b))];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** A ratio as people read it, never rounded up to a pass: 4.47 → "4.4:1". */
export function formatRatio(ratio: number): string {
  return `${(Math.floor(ratio * 10 + 1e-9) / 10).toFixed(1)}:1`;
}

/**
 * "#RGB", "RRGGBB", upper case and spaces accepted; "#rrggbb" out, or null when it is no colour.
 * An empty value is the theme's own colours.
 */
export function normalizeHex(value: string): string | null {
  const digits = value.trim().replace(/^#/, "").toLowerCase();
  if (/^[0-9a-f]{3}$/.test(digits)) return `#${[...digits].map((d) => d + d).join("")}`;
  return /^[0-9a-f]{6}$/.test(digits) ? `#${digits}` : null;
}

/** The CSS custom properties one theme gets from the accent. */
export interface ThemeTokens {
  primary: string;
  primaryForeground: string;
  ring: string;
  accent: string;
}

export interface AccentPalette {
  light: ThemeTokens;
  dark: ThemeTokens;
  /** The share images: the gradient's deep end and the line above the title. */
  card: { deep: string; eyebrow: string };
}

/** Of the theme's light and dark text colours, the one that reads better on `background`. */
function textOn(background: string, theme: { lightText: Oklch; darkText: Oklch }): string {
  const light = oklchToHex(theme.lightText);
  const dark = oklchToHex(theme.darkText);
  return contrastRatio(light, background) >= contrastRatio(dark, background) ? light : dark;
}

/** Every token the accent colour ("#rrggbb") sets in either theme. */
export function accentPalette(hex: string): AccentPalette {
  const [, c, h] = rgbToOklch(hexToRgb(hex));
  const tone = (l: number, chroma: number) => oklchToHex([l, chroma, h]);
  const darkPrimary = tone(TONES.darkPrimary.l, c * TONES.darkPrimary.chroma);
  return {
    light: {
      primary: hex,
      primaryForeground: textOn(hex, THEME_COLOURS.light),
      ring: tone(TONES.lightRing.l, c * TONES.lightRing.chroma),
      accent: tone(TONES.lightTint.l, Math.min(c, TONES.lightTint.maxChroma)),
    },
    dark: {
      primary: darkPrimary,
      primaryForeground: textOn(darkPrimary, THEME_COLOURS.dark),
      ring: tone(TONES.darkRing.l, c * TONES.darkRing.chroma),
      accent: tone(TONES.darkTint.l, Math.min(c, TONES.darkTint.maxChroma)),
    },
    card: { deep: tone(TONES.cardDeep.l, Math.min(c, TONES.cardDeep.maxChroma)), eyebrow: darkPrimary },
  };
}

/** One pair the accent takes part in, measured. */
export interface ContrastCheck {
  theme: "light" | "dark";
  /** What is drawn: the accent as text and links, or text on a button filled with the accent. */
  use: "text" | "button";
  /** The other colour of the pair: a background behind accent text, or the button's text. */
  against: "background" | "tint" | "card" | "button text";
  foreground: string;
  background: string;
  ratio: number;
}

/**
 * Every pair, in the order a failure is reported: light theme first (the accent as the owner chose
 * it), its text against white before the pale tint, then the button; then the dark theme's tone.
 */
export function accentContrast(hex: string): ContrastCheck[] {
  const palette = accentPalette(hex);
  const check = (theme: ContrastCheck["theme"], use: ContrastCheck["use"], against: ContrastCheck["against"], fg: string, bg: string) => ({
    theme,
    use,
    against,
    foreground: fg,
    background: bg,
    ratio: contrastRatio(fg, bg),
  });
  const { light, dark } = palette;
  return [
    check("light", "text", "background", light.primary, oklchToHex(THEME_COLOURS.light.background)),
    check("light", "text", "tint", light.primary, light.accent),
    check("light", "button", "button text", light.primaryForeground, light.primary),
    check("dark", "text", "background", dark.primary, oklchToHex(THEME_COLOURS.dark.background)),
    check("dark", "text", "card", dark.primary, oklchToHex(THEME_COLOURS.dark.card)),
    check("dark", "text", "tint", dark.primary, dark.accent),
    check("dark", "button", "button text", dark.primaryForeground, dark.primary),
  ];
}

/** The first pair below 4.5:1, or null when the colour passes everywhere. */
export function firstContrastFailure(hex: string): ContrastCheck | null {
  return accentContrast(hex).find((check) => check.ratio < MIN_CONTRAST) ?? null;
}
