import fs from "node:fs/promises";
import path from "node:path";

/** Where distributions install fonts (fonts-noto-* on Debian and Ubuntu, google-noto-* on Fedora). */
export const SYSTEM_FONT_DIRS = ["/usr/share/fonts", "/usr/local/share/fonts"];

/**
 * Font families to try, best first, for each script satori asks about (its language codes). Only
 * TTF, OTF and WOFF files are read: satori cannot read collections (.ttc) or WOFF2.
 */
const FAMILIES: Record<string, string[]> = {
  "ja-JP": ["NotoSansJP", "NotoSansCJKjp", "NotoSansCJK", "DroidSansFallback"],
  "ko-KR": ["NotoSansKR", "NotoSansCJKkr", "NotoSansCJK", "DroidSansFallback"],
  "zh-CN": ["NotoSansSC", "NotoSansCJKsc", "NotoSansCJK", "DroidSansFallback"],
  "zh-TW": ["NotoSansTC", "NotoSansCJKtc", "NotoSansCJK", "DroidSansFallback"],
  "zh-HK": ["NotoSansHK", "NotoSansCJKhk", "NotoSansTC", "NotoSansCJK", "DroidSansFallback"],
  "th-TH": ["NotoSansThai", "NotoSansThaiLooped"],
  "bn-IN": ["NotoSansBengali"],
  "ar-AR": ["NotoSansArabic", "NotoNaskhArabic", "DejaVuSans"],
  "ta-IN": ["NotoSansTamil"],
  "ml-IN": ["NotoSansMalayalam"],
  "he-IL": ["NotoSansHebrew", "DejaVuSans"],
  "te-IN": ["NotoSansTelugu"],
  devanagari: ["NotoSansDevanagari"],
  kannada: ["NotoSansKannada"],
  symbol: ["NotoSansSymbols", "NotoSansSymbols2", "DejaVuSans"],
  math: ["NotoSansMath", "DejaVuSans"],
  unknown: ["NotoSans", "DejaVuSans"],
};

const FONT_FILE = /\.(ttf|otf|woff)$/i;
/** Enough for any distribution's font tree; a pathological one is not walked forever. */
const MAX_FILES = 20_000;

export interface SystemFont {
  file: string;
  weight: 400 | 700;
}

async function listFontFiles(dirs: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  const pending = [...dirs];
  while (pending.length > 0 && files.length < MAX_FILES) {
    const dir = pending.shift() ?? "";
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else if (FONT_FILE.test(entry.name)) files.push(full);
    }
  }
  return files.sort();
}

/** The family's name as its files spell it: "NotoSansHebrew-Bold.ttf" → "notosanshebrew". */
function familyOf(file: string): string {
  return path.basename(file).replace(FONT_FILE, "").split(/[-_[]/)[0]?.toLowerCase() ?? "";
}

/** A font's upright regular and bold files: the regular one serves both weights when there is no bold. */
function pickWeights(files: string[]): SystemFont[] {
  const upright = files.filter((f) => !/italic|oblique|condensed|mono/i.test(path.basename(f)));
  const regular = upright.find((f) => /-(regular|book)\./i.test(f) || !path.basename(f).includes("-")) ?? upright[0];
  const bold = upright.find((f) => /-bold\./i.test(f));
  return [...(regular ? [{ file: regular, weight: 400 as const }] : []), ...(bold ? [{ file: bold, weight: 700 as const }] : [])];
}

/**
 * Finds installed fonts for the scripts the bundled Inter lacks. Returns a lookup from satori's
 * language code to the files of the first family installed (none: an empty list, the card is drawn
 * without those glyphs).
 */
export async function systemFontFinder(dirs: readonly string[] = SYSTEM_FONT_DIRS): Promise<(languageCode: string) => SystemFont[]> {
  const byFamily = new Map<string, string[]>();
  for (const file of await listFontFiles(dirs)) {
    const family = familyOf(file);
    byFamily.set(family, [...(byFamily.get(family) ?? []), file]);
  }
  return (languageCode) => {
    for (const family of FAMILIES[languageCode] ?? []) {
      const files = byFamily.get(family.toLowerCase());
      if (files) return pickWeights(files);
    }
    return [];
  };
}
