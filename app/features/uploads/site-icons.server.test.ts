import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { png } from "../../../tests/fixtures/images";
import { FAVICON_PNG_SIZES, ICO_SIZES, icoFromPngs, LOGO_MARK_HEIGHT, makeFaviconFiles, makeLogoMark } from "./site-icons.server";

/** The directory of an .ico: [width, height, offset, length] per entry (0 stands for 256). */
function icoEntries(ico: Buffer): { width: number; height: number; offset: number; length: number }[] {
  expect(ico.readUInt16LE(0)).toBe(0);
  expect(ico.readUInt16LE(2)).toBe(1);
  const count = ico.readUInt16LE(4);
  return Array.from({ length: count }, (_, i) => {
    const at = 6 + 16 * i;
    return { width: ico.readUInt8(at), height: ico.readUInt8(at + 1), length: ico.readUInt32LE(at + 8), offset: ico.readUInt32LE(at + 12) };
  });
}

describe("favicon files", () => {
  it("makes a square PNG of every size from a wide image, without cropping it", async () => {
    const { pngs } = await makeFaviconFiles(await png(640, 200));
    expect([...pngs.keys()]).toEqual([...FAVICON_PNG_SIZES]);
    for (const [size, body] of pngs) {
      const meta = await sharp(body).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: "png", width: size, height: size });
    }
    // Fitted whole: a wide image leaves transparent bands above and below (the iOS icon gets white ones).
    const { data } = await sharp(pngs.get(32)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(data[3]).toBe(0);
    const apple = await sharp(pngs.get(180)).metadata();
    expect(apple.hasAlpha).toBe(false);
  });

  it("packs the 16, 32 and 48 PNGs into the .ico, each entry pointing at a whole PNG", async () => {
    const { ico, pngs } = await makeFaviconFiles(await png(96, 96));
    const entries = icoEntries(ico);
    expect(entries.map((e) => e.width)).toEqual([...ICO_SIZES]);
    for (const [i, entry] of entries.entries()) {
      const body = ico.subarray(entry.offset, entry.offset + entry.length);
      expect(body.equals(pngs.get(ICO_SIZES[i] ?? 0) ?? Buffer.alloc(0))).toBe(true);
    }
    expect(ico.byteLength).toBe(6 + 16 * 3 + entries.reduce((sum, e) => sum + e.length, 0));
  });

  it("writes 256 and more as 0 in the .ico directory", () => {
    const entries = icoEntries(icoFromPngs([{ size: 256, body: Buffer.from("x") }]));
    expect(entries).toEqual([{ width: 0, height: 0, offset: 22, length: 1 }]);
  });

  it("refuses what is not an image", async () => {
    await expect(makeFaviconFiles(Buffer.from("<?php echo 1; ?>"))).rejects.toThrow();
  });
});

describe("logo mark", () => {
  it("is made twice its drawn height, its width following the image up to four times the height", async () => {
    expect(await makeLogoMark(await png(300, 100)).then(({ width, height }) => ({ width, height }))).toEqual({
      width: 3 * LOGO_MARK_HEIGHT,
      height: LOGO_MARK_HEIGHT,
    });
    const wide = await makeLogoMark(await png(2000, 100));
    expect(wide.width).toBe(4 * LOGO_MARK_HEIGHT);
    expect(wide.height).toBeLessThan(LOGO_MARK_HEIGHT);
    expect((await sharp(wide.body).metadata()).format).toBe("png");
  });
});
