import { contentTypeForExt } from "~/features/uploads/images.server";
import { BUCKET } from "~/features/uploads/uploads.server";
import { getStorage, STORAGE_KEY } from "~/server/storage.server";
import type { Route } from "./+types/uploads-file";

/** GET /uploads/blog-images/... — uploaded images, with their real type, nosniff and a year of caching (names never change). */
export async function loader({ params }: Route.LoaderArgs) {
  const key = params["*"];
  const ext = key.split(".").pop() ?? "";
  const type = contentTypeForExt(ext);
  if (!key.startsWith(`${BUCKET}/`) || !STORAGE_KEY.test(key) || !type) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  const file = await getStorage().get(key);
  if (!file) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  return new Response(new Uint8Array(file.body), {
    headers: {
      "Content-Type": type,
      "Content-Length": String(file.body.byteLength),
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    },
  });
}
