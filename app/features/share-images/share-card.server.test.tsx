import sharp from "sharp";
import { describe, expect, it, vi } from "vitest";
import { renderShareCard, shareCardAlt, shareCardHash, SHARE_IMAGE_HEIGHT, SHARE_IMAGE_WIDTH, type ShareCard } from "./share-card.server";

// No system fonts: what is drawn comes from the bundled Inter alone, whatever this machine has installed.
vi.mock("./system-fonts.server", () => ({ systemFontFinder: async () => () => [] }));

const CARD: ShareCard = {
  title: "Saving for the long run",
  eyebrow: "Finance",
  siteName: "Jane Doe",
  date: "March 4, 2026",
  accentColor: "",
  fontPairing: "system",
};

describe("share cards", () => {
  it("draws a 1200×630 PNG", async () => {
    const png = await renderShareCard(CARD);
    const meta = await sharp(png).metadata();
    expect(meta.format).toBe("png");
    expect([meta.width, meta.height]).toEqual([SHARE_IMAGE_WIDTH, SHARE_IMAGE_HEIGHT]);
    expect([SHARE_IMAGE_WIDTH, SHARE_IMAGE_HEIGHT]).toEqual([1200, 630]);
  });

  it("draws the text (a card with a title differs from one without) and keeps very long or accented titles in size", async () => {
    const long: ShareCard = { ...CARD, title: `Ça coûte cher — ${"a very long title ".repeat(20)}`, date: null };
    const [plain, other, longPng] = await Promise.all([
      renderShareCard(CARD),
      renderShareCard({ ...CARD, title: "Something else" }),
      renderShareCard(long),
    ]);
    const raw = (png: Buffer) => sharp(png).raw().toBuffer();
    expect((await raw(plain)).equals(await raw(other))).toBe(false);
    const meta = await sharp(longPng).metadata();
    expect([meta.width, meta.height]).toEqual([1200, 630]);
  });

  it("draws Cyrillic, Greek and Vietnamese titles with the bundled fonts (two titles of one script differ)", async () => {
    const raw = async (title: string) =>
      sharp(await renderShareCard({ ...CARD, title, date: null }))
        .raw()
        .toBuffer();
    const pairs: [string, string][] = [
      ["Привет", "Здравс"],
      ["Καλημέρα", "Ευχαριστ"],
      ["ỆỄẾ", "ỖỘỚ"],
    ];
    for (const [a, b] of pairs) {
      expect((await raw(a)).equals(await raw(b)), `${a} / ${b}`).toBe(false);
    }
  });

  it("still draws a card when a title's script has no font (CJK, Arabic, Hebrew, Devanagari, emoji)", async () => {
    for (const title of ["日本語のタイトル", "中文标题", "한국어 제목", "عنوان عربي", "כותרת בעברית", "हिन्दी शीर्षक", "Party 🎉"]) {
      const meta = await sharp(await renderShareCard({ ...CARD, title })).metadata();
      expect([meta.format, meta.width, meta.height], title).toEqual(["png", 1200, 630]);
    }
  });

  it("names each card by what it shows: a changed title or site name is a new hash", () => {
    const hash = shareCardHash(CARD);
    expect(hash).toMatch(/^[a-f0-9]{24}$/);
    expect(shareCardHash({ ...CARD })).toBe(hash);
    expect(shareCardHash({ ...CARD, title: "Saving for the long run!" })).not.toBe(hash);
    expect(shareCardHash({ ...CARD, siteName: "John Doe" })).not.toBe(hash);
    expect(shareCardHash({ ...CARD, date: null })).not.toBe(hash);
    expect(shareCardHash({ ...CARD, accentColor: "#b91c1c" })).not.toBe(hash);
    expect(shareCardHash({ ...CARD, fontPairing: "editorial" })).not.toBe(hash);
  });

  it("keeps the address of a card with the default look (the brand is hashed only once set)", () => {
    expect(shareCardHash(CARD)).toBe("1cb475f3f9c526740151020a");
  });

  it("draws the brand: the accent's tones and the pairing's heading font change the picture", async () => {
    const raw = async (card: ShareCard) =>
      sharp(await renderShareCard(card))
        .raw()
        .toBuffer();
    const [plain, red, serif] = await Promise.all([
      raw(CARD),
      raw({ ...CARD, accentColor: "#b91c1c" }),
      raw({ ...CARD, fontPairing: "editorial" }),
    ]);
    expect(red.equals(plain)).toBe(false);
    expect(serif.equals(plain)).toBe(false);
    // The gradient's deep corner (bottom right) takes the accent's hue: red outweighs blue there.
    const { data, info } = await sharp(await renderShareCard({ ...CARD, accentColor: "#b91c1c" }))
      .extract({ left: 1190, top: 620, width: 1, height: 1 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(info.channels).toBeGreaterThanOrEqual(3);
    expect(data[0]).toBeGreaterThan(data[2] ?? 255);
  });

  it("describes the card in its alt text", () => {
    expect(shareCardAlt(CARD)).toBe("Saving for the long run · Finance · Jane Doe · March 4, 2026");
    expect(shareCardAlt({ ...CARD, date: null })).toBe("Saving for the long run · Finance · Jane Doe");
  });
});
