import type { Readable } from "node:stream";
import { DOCUMENTS_BUCKET, resumeDisposition } from "~/features/uploads/documents.server";
import { contentTypeForExt } from "~/features/uploads/images.server";
import { getSiteSettings } from "~/features/settings/settings.server";
import { BUCKET, publicUploadUrl } from "~/features/uploads/uploads.server";
import { openRanged } from "~/server/byte-range.server";
import { getStorage, STORAGE_KEY } from "~/server/storage.server";
import type { Route } from "./+types/uploads-file";

/** The headers of a document: a download named after the owner (read now: the name may have changed). */
async function documentHeaders(): Promise<Record<string, string>> {
  const site = await getSiteSettings();
  return {
    "Content-Type": "application/pdf",
    "Content-Disposition": resumeDisposition(site.ownerName || site.siteName),
    "Cache-Control": "public, max-age=3600",
  };
}

/**
 * GET /uploads/blog-images/... — uploaded images, with their real type, nosniff and a year of caching
 * (names never change). Streamed from the storage, never held in memory whole; with S3_PUBLIC_URL
 * set, a permanent redirect to the CDN or bucket instead (older content still links here).
 * GET /uploads/documents/....pdf — the resume, always from here (also with S3) as a download.
 */
export async function loader({ params, request }: Route.LoaderArgs) {
  const key = params["*"];
  const ext = key.split(".").pop() ?? "";
  const isDocument = key.startsWith(`${DOCUMENTS_BUCKET}/`) && ext === "pdf";
  const type = isDocument ? "application/pdf" : key.startsWith(`${BUCKET}/`) ? contentTypeForExt(ext) : null;
  if (!STORAGE_KEY.test(key) || !type) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  const publicUrl = publicUploadUrl(key);
  if (!isDocument && !publicUrl.startsWith("/"))
    return new Response(null, { status: 301, headers: { Location: publicUrl, "Cache-Control": "public, max-age=86400" } });
  const file = await openRanged(getStorage(), key, request.headers.get("range"));
  if (!file) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  const { size } = file;
  const headers = {
    "Content-Type": type,
    "Accept-Ranges": "bytes",
    "Cache-Control": "public, max-age=31536000, immutable",
    "Content-Security-Policy": "default-src 'none'; sandbox",
    ...(isDocument ? await documentHeaders() : {}),
  };
  if (file.status === 416) return new Response(null, { status: 416, headers: { ...headers, "Content-Range": `bytes */${size}` } });
  if (file.status === 200) return new Response(webStream(file.stream), { headers: { ...headers, "Content-Length": String(size) } });
  const { range } = file;
  return new Response(webStream(file.stream), {
    status: 206,
    headers: {
      ...headers,
      "Content-Range": `bytes ${range.start}-${range.end}/${size}`,
      "Content-Length": String(range.end - range.start + 1),
    },
  });
}

/** A Node stream as the web stream a Response takes, pulled chunk by chunk (back-pressure kept). */
function webStream(stream: Readable): ReadableStream<Uint8Array> {
  const chunks = stream[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next: IteratorResult<unknown> = await chunks.next();
      if (next.done) controller.close();
      else if (next.value instanceof Uint8Array) controller.enqueue(next.value);
      else controller.error(new Error("storage stream yielded a non-binary chunk"));
    },
    cancel() {
      stream.destroy();
    },
  });
}
