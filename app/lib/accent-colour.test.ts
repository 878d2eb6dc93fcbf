import fs from "node:fs";
import path from "node:path";
import { contrastWCAG21, OKLCH, sRGB, to } from "colorjs.io/fn";
import { describe, expect, it } from "vitest";
import {
  accentContrast,
  accentPalette,
  contrastRatio,
  firstContrastFailure,
  formatRatio,
  normalizeHex,
  oklchToHex,
  oklchToRgb,
  rgbToOklch,
  THEME_COLOURS,
  type Oklch,
} from "./accent-colour";
import { SYSTEM_SANS } from "./font-pairings";

const srgb = (hex: string) => ({
  space: sRGB,
  coords: [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number],
  alpha: 1,
});

/** A fixed spread of colours (no randomness: a failure names the same colour every run). */
const SAMPLES = Array.from({ length: 512 }, (_, i) => `#${((i * 2654435761) >>> 8).toString(16).padStart(6, "0").slice(-6)}`);

describe("contrast", () => {
  it("measures WCAG 2.x contrast: the known pairs", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#ffffff", "#ffffff")).toBe(1);
    expect(contrastRatio("#777777", "#ffffff")).toBeCloseTo(4.48, 2);
    expect(contrastRatio("#767676", "#ffffff")).toBeCloseTo(4.54, 2);
    expect(contrastRatio("#ffffff", "#767676")).toBe(contrastRatio("#767676", "#ffffff"));
  });

  // Color.js goes through CIE XYZ, whose coefficients differ in the fourth decimal.
  it("agrees with Color.js on every sample", () => {
    for (const hex of SAMPLES) {
      expect(contrastRatio(hex, "#ffffff"), hex).toBeCloseTo(contrastWCAG21(srgb(hex), srgb("#ffffff")), 2);
      expect(contrastRatio(hex, "#0c0d0f"), hex).toBeCloseTo(contrastWCAG21(srgb(hex), srgb("#0c0d0f")), 2);
    }
  });

  it("never rounds a ratio up to a pass", () => {
    expect(formatRatio(4.4999)).toBe("4.4:1");
    expect(formatRatio(4.5)).toBe("4.5:1");
    expect(formatRatio(2.96)).toBe("2.9:1");
    expect(formatRatio(21)).toBe("21.0:1");
  });
});

describe("OKLCH", () => {
  it("converts sRGB to OKLCH and back as Color.js does", () => {
    for (const hex of SAMPLES) {
      const ours = rgbToOklch(srgb(hex).coords);
      const theirs = to(srgb(hex), OKLCH).coords;
      expect(ours[0], hex).toBeCloseTo(theirs[0] ?? 0, 3);
      expect(ours[1], hex).toBeCloseTo(theirs[1] ?? 0, 3);
      if (ours[1] > 0.02) expect(Math.abs(((((ours[2] - (theirs[2] ?? 0)) % 360) + 540) % 360) - 180), hex).toBeLessThan(0.5);
      const back = oklchToRgb(ours);
      back.forEach((channel, i) => expect(channel, hex).toBeCloseTo(srgb(hex).coords[i] ?? 0, 4));
    }
  });

  it("brings an out-of-gamut colour into sRGB by cutting its chroma, keeping lightness and hue", () => {
    const vivid: Oklch = [0.78, 0.4, 150];
    expect(oklchToRgb(vivid).some((c) => c < 0 || c > 1)).toBe(true);
    const [l, c, h] = rgbToOklch(srgb(oklchToHex(vivid)).coords);
    expect(l).toBeCloseTo(0.78, 2);
    expect(c).toBeLessThan(0.4);
    expect(Math.abs(h - 150)).toBeLessThan(2);
  });
});

describe("the accent colour", () => {
  it("reads hex as people type it", () => {
    expect(normalizeHex("#1D4ED8")).toBe("#1d4ed8");
    expect(normalizeHex(" 1d4ed8 ")).toBe("#1d4ed8");
    expect(normalizeHex("#abc")).toBe("#aabbcc");
    for (const bad of ["", "#12345", "blue", "#1d4ed8;}", "url(x)", "#ggg"]) expect(normalizeHex(bad), bad).toBeNull();
  });

  it("keeps the owner's colour in the light theme and picks the button text that reads", () => {
    const dark = accentPalette("#0052ab");
    expect(dark.light.primary).toBe("#0052ab");
    expect(dark.light.primaryForeground).toBe(oklchToHex(THEME_COLOURS.light.lightText));
    expect(accentPalette("#ffcc00").light.primaryForeground).toBe(oklchToHex(THEME_COLOURS.light.darkText));
  });

  it("gives the dark theme a lighter tone of the same hue", () => {
    const { dark } = accentPalette("#b91c1c");
    const [l, , h] = rgbToOklch(srgb(dark.primary).coords);
    expect(l).toBeCloseTo(0.78, 2);
    expect(Math.abs(h - rgbToOklch(srgb("#b91c1c").coords)[2])).toBeLessThan(3);
  });

  it("passes the theme's own blue and refuses colours that fail as text or on buttons", () => {
    expect(firstContrastFailure(oklchToHex(THEME_COLOURS.light.primary))).toBeNull();
    expect(firstContrastFailure("#b91c1c")).toBeNull();
    expect(firstContrastFailure("#7dd3fc")).toMatchObject({ theme: "light", use: "text", against: "background" });
    // Passes on white (4.54:1) but not on the pale tint at the top of the home page.
    expect(firstContrastFailure("#767676")).toMatchObject({ theme: "light", against: "tint" });
    expect(firstContrastFailure("#2563eb")).toMatchObject({ against: "tint" });
  });

  it("a colour accepted in the light theme reads in the dark theme too (every sample)", () => {
    for (const hex of SAMPLES) {
      const checks = accentContrast(hex);
      const light = checks.filter((c) => c.theme === "light");
      if (light.some((c) => c.ratio < 4.5)) continue;
      for (const check of checks.filter((c) => c.theme === "dark"))
        expect(check.ratio, `${hex} ${check.against}`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("uses the theme colours app.css defines", () => {
    const css = fs.readFileSync(path.join(import.meta.dirname, "../app.css"), "utf8");
    const block = (selector: string) => new RegExp(`^${selector.replace(".", "\\.")} \\{([^}]*)\\}`, "m").exec(css)?.[1] ?? "";
    const oklch = ([l, c, h]: Oklch) => `oklch(${l} ${c} ${h})`;
    const root = block(":root");
    const dark = block(".dark");
    expect(root).toContain(`--primary: ${oklch(THEME_COLOURS.light.primary)};`);
    expect(root).toContain(`--background: ${oklch(THEME_COLOURS.light.background)};`);
    expect(root).toContain(`--primary-foreground: ${oklch(THEME_COLOURS.light.lightText)};`);
    expect(root).toContain(`--foreground: ${oklch(THEME_COLOURS.light.darkText)};`);
    expect(root).toContain(`--font-body: ${SYSTEM_SANS};`);
    expect(dark).toContain(`--background: ${oklch(THEME_COLOURS.dark.background)};`);
    expect(dark).toContain(`--card: ${oklch(THEME_COLOURS.dark.card)};`);
    expect(dark).toContain(`--foreground: ${oklch(THEME_COLOURS.dark.lightText)};`);
    expect(dark).toContain(`--primary-foreground: ${oklch(THEME_COLOURS.dark.darkText)};`);
    expect(root).toContain(`--accent: oklch(0.95 0.02 255);`);
    expect(dark).toContain(`--accent: oklch(0.3 0.04 255);`);
  });
});
