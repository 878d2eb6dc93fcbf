import type { Actor } from "~/lib/permissions";
import { recordAudit } from "~/server/audit.server";
import type { Db } from "~/server/db/client.server";
import { uploads } from "~/server/db/schema.server";
import { ValidationError } from "~/server/errors.server";
import { loadSharp } from "~/server/sharp.server";
import { getStorage } from "~/server/storage.server";
import type { LogoMark, SiteIcons } from "./site-icons";
import { BUCKET, publicUploadUrl, uploadKeyOf } from "./uploads.server";

/** PNG sizes made from a favicon: 16–48 for tabs (and the .ico), 180 for iOS, 192 and 512 for the web manifest. */
export const FAVICON_PNG_SIZES = [16, 32, 48, 180, 192, 512] as const;
/** Sizes the .ico holds (PNG-compressed entries, read by every current browser). */
export const ICO_SIZES = [16, 32, 48] as const;
/** The top bar's logo mark is drawn 32 px high: made twice that for sharp screens. */
export const LOGO_MARK_HEIGHT = 64;
const LOGO_MARK_MAX_WIDTH = 256;

/** An .ico container holding PNG images (one directory entry each; 256 and more are written as 0). */
export function icoFromPngs(images: readonly { size: number; body: Buffer }[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, body }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0);
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt16LE(1, 4);
    entry.writeUInt16LE(32, 6);
    entry.writeUInt32LE(body.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += body.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((image) => image.body)]);
}

/**
 * Square PNGs of every favicon size and the .ico: the image is fitted whole (never cropped) on a
 * transparent square; the iOS icon gets a white one, as iOS paints transparency black.
 */
export async function makeFaviconFiles(input: Buffer): Promise<{ pngs: Map<number, Buffer>; ico: Buffer }> {
  const sharp = await loadSharp();
  const pngs = new Map<number, Buffer>();
  for (const size of FAVICON_PNG_SIZES) {
    const background = size === 180 ? { r: 255, g: 255, b: 255, alpha: 1 } : { r: 0, g: 0, b: 0, alpha: 0 };
    const body = await sharp(input, { failOn: "error" })
      .rotate()
      .resize(size, size, { fit: "contain", background })
      .flatten(size === 180 ? { background } : false)
      .png({ compressionLevel: 9 })
      .toBuffer();
    pngs.set(size, body);
  }
  const ico = icoFromPngs(ICO_SIZES.map((size) => ({ size, body: pngOf(pngs, size) })));
  return { pngs, ico };
}

function pngOf(pngs: Map<number, Buffer>, size: number): Buffer {
  const body = pngs.get(size);
  if (!body) throw new Error(`favicon size ${size} was not made`);
  return body;
}

/** The logo mark at twice its drawn height, its width following the image (at most four times the height). */
export async function makeLogoMark(input: Buffer): Promise<{ body: Buffer; width: number; height: number }> {
  const sharp = await loadSharp();
  const { data, info } = await sharp(input, { failOn: "error" })
    .rotate()
    .resize({ height: LOGO_MARK_HEIGHT, width: LOGO_MARK_MAX_WIDTH, fit: "inside", withoutEnlargement: false })
    .png({ compressionLevel: 9 })
    .toBuffer({ resolveWithObject: true });
  return { body: data, width: info.width, height: info.height };
}

/** The stored original of one of our uploaded images, or a ValidationError naming the field. */
async function readUploadedImage(url: string, label: string): Promise<{ key: string; body: Buffer }> {
  const key = uploadKeyOf(url);
  if (!key?.startsWith(`${BUCKET}/`)) throw new ValidationError(`${label} must be an image uploaded here: use its Upload button.`);
  const file = await getStorage().get(key);
  if (!file) throw new ValidationError(`${label}: the uploaded image was not found. Please upload it again.`);
  return { key, body: file.body };
}

/** The storage key without its extension: made files are named after their source. */
function stemOf(key: string): string {
  return key.replace(/\.[a-z0-9]+$/, "");
}

/**
 * Records made files as one `uploads` row (the first file the original, the others its variants), so
 * they are backed up, listed and deleted with the other uploads once the settings no longer use them.
 */
async function recordMadeFiles(
  db: Db,
  actor: Actor,
  original: { key: string; contentType: string; body: Buffer; width: number; height: number },
  variants: { width: number; key: string; byteSize: number }[],
  summary: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const rows = await tx
      .insert(uploads)
      .values({
        userId: actor.id,
        bucket: BUCKET,
        storageKey: original.key,
        contentType: original.contentType,
        byteSize: original.body.byteLength,
        width: original.width,
        height: original.height,
        variants,
      })
      .onConflictDoNothing({ target: uploads.storageKey })
      .returning({ id: uploads.id });
    if (rows[0]) await recordAudit(tx, { actor, action: "upload.create", target: { type: "upload", id: rows[0].id }, summary });
  });
}

/** Makes and stores the favicon files of an uploaded image (once, when the settings are saved). */
export async function storeSiteIcons(db: Db, actor: Actor, sourceUrl: string, label: string): Promise<SiteIcons> {
  const source = await readUploadedImage(sourceUrl, label);
  let made: Awaited<ReturnType<typeof makeFaviconFiles>>;
  try {
    made = await makeFaviconFiles(source.body);
  } catch {
    throw new ValidationError(`${label}: the image could not be read to make the icons.`);
  }
  const stem = stemOf(source.key);
  const storage = getStorage();
  const keys = new Map<number, string>();
  for (const [size, body] of made.pngs) {
    const key = `${stem}-icon-${size}.png`;
    await storage.put(key, body, "image/png");
    keys.set(size, key);
  }
  const icoKey = `${stem}-favicon.ico`;
  await storage.put(icoKey, made.ico, "image/x-icon");
  await recordMadeFiles(
    db,
    actor,
    { key: icoKey, contentType: "image/x-icon", body: made.ico, width: 48, height: 48 },
    [...keys].map(([size, key]) => ({ width: size, key, byteSize: pngOf(made.pngs, size).byteLength })),
    `site icons made from ${source.key}`,
  );
  const url = (size: number) => publicUploadUrl(keys.get(size) ?? "");
  return {
    source: sourceUrl,
    ico: publicUploadUrl(icoKey),
    png32: url(32),
    png48: url(48),
    appleTouch: url(180),
    png192: url(192),
    png512: url(512),
  };
}

/** Makes and stores the top bar's logo mark from an uploaded image (once, when the settings are saved). */
export async function storeLogoMark(db: Db, actor: Actor, sourceUrl: string, label: string): Promise<LogoMark> {
  const source = await readUploadedImage(sourceUrl, label);
  let mark: Awaited<ReturnType<typeof makeLogoMark>>;
  try {
    mark = await makeLogoMark(source.body);
  } catch {
    throw new ValidationError(`${label}: the image could not be read to make the logo mark.`);
  }
  const key = `${stemOf(source.key)}-mark.png`;
  await getStorage().put(key, mark.body, "image/png");
  await recordMadeFiles(db, actor, { key, contentType: "image/png", ...mark }, [], `logo mark made from ${source.key}`);
  return { source: sourceUrl, url: publicUploadUrl(key), width: mark.width, height: mark.height };
}
