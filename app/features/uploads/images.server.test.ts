import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { ValidationError } from "~/server/errors.server";
import { jpegWithGps, PHP_AS_JPG, png, pngBomb, SVG_WITH_SCRIPT, truncatedJpeg } from "../../../tests/fixtures/images";
import { LIMITS } from "~/server/limits.server";
import { processImage } from "./images.server";

async function rejection(bytes: Buffer, name: string): Promise<string> {
  const error: unknown = await processImage(bytes, name).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return error instanceof Error ? error.message : "";
}

describe("processImage (hostile uploads)", () => {
  it("refuses a PHP file named .jpg", async () => {
    expect(await rejection(PHP_AS_JPG, "shell.jpg")).toMatch(/not a supported image/);
  });

  it("refuses an SVG with a script", async () => {
    expect(await rejection(SVG_WITH_SCRIPT, "logo.svg")).toMatch(/not a supported image/);
  });

  it("refuses a 20000x20000 PNG before decoding it", async () => {
    const started = Date.now();
    expect(await rejection(pngBomb(), "bomb.png")).toMatch(/too large \(20000×20000 pixels/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("refuses a truncated JPEG", async () => {
    expect(await rejection(await truncatedJpeg(), "cut.jpg")).toMatch(/damaged or truncated/);
  });

  it("refuses empty files and files over the size limit", async () => {
    expect(await rejection(Buffer.alloc(0), "empty.png")).toMatch(/empty/);
    expect(await rejection(Buffer.alloc(LIMITS.image + 1), "huge.jpg")).toMatch(/larger than 10 MB/);
  });

  it("re-encodes a JPEG without EXIF/GPS and makes WebP sizes that never upscale", async () => {
    const input = await jpegWithGps(1200, 800);
    expect((await sharp(input).metadata()).exif).toBeDefined();
    const out = await processImage(input, "photo.jpg");
    expect(out).toMatchObject({ ext: "jpg", contentType: "image/jpeg", width: 1200, height: 800 });
    const meta = await sharp(out.body).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.format).toBe("jpeg");
    expect(out.variants.map((v) => v.width)).toEqual([320, 640, 1024]);
    for (const v of out.variants) {
      const vm = await sharp(v.body).metadata();
      expect(vm.format).toBe("webp");
      expect(vm.width).toBe(v.width);
      expect(vm.exif).toBeUndefined();
    }
  });

  it("accepts PNG, WebP, GIF and AVIF by content, whatever the name says", async () => {
    const base = await png(50, 40);
    expect((await processImage(base, "x.jpg")).contentType).toBe("image/png");
    const webp = await sharp(base).webp().toBuffer();
    expect((await processImage(webp, "x.png")).contentType).toBe("image/webp");
    const gif = await sharp(base).gif().toBuffer();
    expect((await processImage(gif, "x.gif")).contentType).toBe("image/gif");
    const avif = await sharp(base).avif({ effort: 0 }).toBuffer();
    expect((await processImage(avif, "x.avif")).contentType).toBe("image/avif");
    // Smaller than every variant width: no variants at all.
    expect((await processImage(base, "small.png")).variants).toEqual([]);
  });
});
