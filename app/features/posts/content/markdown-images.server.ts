import { publicUploadUrl, uploadUrlsOf } from "~/features/uploads/uploads.server";
import type { KnownImage } from "./markdown.server";

/** An `uploads` row as stored (keys include the bucket), for building the renderer's image lookup. */
export interface UploadRow {
  storageKey: string;
  width: number;
  height: number;
  variants: readonly { width: number; key: string }[];
  alt: string;
}

/** The renderer's lookup from upload rows: site path (and public URL, with S3_PUBLIC_URL) → size, WebP variants and library alt text. */
export function knownImagesFromUploads(rows: readonly UploadRow[]): Map<string, KnownImage> {
  return new Map(
    rows.flatMap((row) => {
      const image = {
        width: row.width,
        height: row.height,
        variants: row.variants.map((v) => ({ width: v.width, url: publicUploadUrl(v.key) })),
        alt: row.alt,
      };
      return uploadUrlsOf(row.storageKey).map((url) => [url, image] as const);
    }),
  );
}
