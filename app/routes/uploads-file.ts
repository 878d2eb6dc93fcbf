import { contentTypeForExt } from "~/features/uploads/images.server";
import { BUCKET } from "~/features/uploads/uploads.server";
import { parseByteRange } from "~/server/byte-range.server";
import { getStorage, STORAGE_KEY } from "~/server/storage.server";
import type { Route } from "./+types/uploads-file";

/** GET /uploads/blog-images/... — uploaded images, with their real type and a year of caching (names never change); nosniff comes with every response (server/security-headers.ts), a sandbox policy with these. */
export async function loader({ params, request }: Route.LoaderArgs) {
  const key = params["*"];
  const ext = key.split(".").pop() ?? "";
  const type = contentTypeForExt(ext);
  if (!key.startsWith(`${BUCKET}/`) || !STORAGE_KEY.test(key) || !type) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  const file = await getStorage().get(key);
  if (!file) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  const size = file.body.byteLength;
  const headers = {
    "Content-Type": type,
    "Accept-Ranges": "bytes",
    "Cache-Control": "public, max-age=31536000, immutable",
    "Content-Security-Policy": "default-src 'none'; sandbox",
  };
  const range = parseByteRange(request.headers.get("range"), size);
  if (range === "unsatisfiable") {
    return new Response(null, { status: 416, headers: { ...headers, "Content-Range": `bytes */${size}` } });
  }
  if (range) {
    return new Response(new Uint8Array(file.body.subarray(range.start, range.end + 1)), {
      status: 206,
      headers: { ...headers, "Content-Range": `bytes ${range.start}-${range.end}/${size}`, "Content-Length": String(range.end - range.start + 1) },
    });
  }
  return new Response(new Uint8Array(file.body), { headers: { ...headers, "Content-Length": String(size) } });
}
