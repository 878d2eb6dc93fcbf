import type { Metadata } from "sharp";
import { ValidationError } from "~/server/errors.server";
import { formatBytes, LIMITS } from "~/server/limits.server";
import { loadSharp } from "~/server/sharp.server";

/** Decompression-bomb guard: larger images are refused before their pixels are decoded. */
const MAX_IMAGE_PIXELS = 40_000_000;
const VARIANT_WIDTHS = [320, 640, 1024, 1600] as const;

const FORMATS = {
  jpeg: { ext: "jpg", contentType: "image/jpeg" },
  png: { ext: "png", contentType: "image/png" },
  webp: { ext: "webp", contentType: "image/webp" },
  gif: { ext: "gif", contentType: "image/gif" },
  avif: { ext: "avif", contentType: "image/avif" },
} as const;
type Format = keyof typeof FORMATS;

export interface ProcessedImage {
  ext: string;
  contentType: string;
  width: number;
  height: number;
  body: Buffer;
  variants: { width: number; body: Buffer }[];
}

function detectFormat(meta: Metadata): Format | null {
  if (meta.format === "jpeg" || meta.format === "png" || meta.format === "webp" || meta.format === "gif") return meta.format;
  // sharp reports AVIF as heif with the av1 compression.
  if (meta.format === "heif" && meta.compression === "av1") return "avif";
  return null;
}

/**
 * The MIME type of the raster image the bytes really are (read from their header by sharp, as
 * uploads are: JPEG, PNG, WebP, GIF or AVIF), or null for anything else (SVG, HTML, damaged).
 */
export async function imageTypeOf(bytes: Uint8Array): Promise<string | null> {
  const sharp = await loadSharp();
  try {
    const format = detectFormat(await sharp(bytes, { limitInputPixels: false, failOn: "error" }).metadata());
    return format ? FORMATS[format].contentType : null;
  } catch {
    return null;
  }
}

/**
 * Accepts only real raster images, checked by decoding (never by name or declared type). The original
 * is re-encoded, which drops EXIF/GPS and any trailing payload; WebP variants are made for srcset.
 */
export async function processImage(input: Buffer, name: string): Promise<ProcessedImage> {
  const label = name.slice(0, 100) || "file";
  if (input.byteLength === 0) throw new ValidationError(`${label} is empty.`);
  if (input.byteLength > LIMITS.image) throw new ValidationError(`${label} is larger than ${formatBytes(LIMITS.image)}.`);
  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    // metadata() reads only the header; the pixel limit is checked below with a clearer message,
    // and the decoding pipeline enforces it again through limitInputPixels.
    meta = await sharp(input, { limitInputPixels: false, failOn: "error" }).metadata();
  } catch {
    throw new ValidationError(`${label} is not a supported image (JPEG, PNG, WebP, GIF or AVIF).`);
  }
  const format = detectFormat(meta);
  if (!format) throw new ValidationError(`${label} is not a supported image (JPEG, PNG, WebP, GIF or AVIF).`);
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  if (!width || !height) throw new ValidationError(`${label} is not a supported image.`);
  if (width * height > MAX_IMAGE_PIXELS) {
    throw new ValidationError(`${label} is too large (${width}×${height} pixels; at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels).`);
  }
  const animated = format === "gif" || format === "webp" ? (meta.pages ?? 1) > 1 : false;
  const base = () => sharp(input, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: "truncated", animated }).rotate();
  try {
    let pipeline = base();
    if (format === "jpeg") pipeline = pipeline.jpeg({ quality: 85, mozjpeg: true });
    else if (format === "png") pipeline = pipeline.png({ compressionLevel: 9 });
    else if (format === "webp") pipeline = pipeline.webp({ quality: 85 });
    else if (format === "gif") pipeline = pipeline.gif();
    else pipeline = pipeline.avif({ quality: 60, effort: 2 });
    const body = await pipeline.toBuffer();
    const variants: { width: number; body: Buffer }[] = [];
    for (const w of VARIANT_WIDTHS) {
      if (w >= width) break;
      variants.push({ width: w, body: await base().resize({ width: w, withoutEnlargement: true }).webp({ quality: 80 }).toBuffer() });
    }
    return { ext: FORMATS[format].ext, contentType: FORMATS[format].contentType, width, height, body, variants };
  } catch {
    throw new ValidationError(`${label} is damaged or truncated and could not be read.`);
  }
}

/** Image files the app makes itself (the site icons) but never accepts as an upload. */
const MADE_TYPES: Record<string, string> = { ico: "image/x-icon" };

export function contentTypeForExt(ext: string): string | null {
  for (const f of Object.values(FORMATS)) if (f.ext === ext) return f.contentType;
  return MADE_TYPES[ext] ?? null;
}
