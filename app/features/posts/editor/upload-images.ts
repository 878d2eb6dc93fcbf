import { toast } from "~/components/toaster";

export interface UploadedImageRef {
  id: string;
  url: string;
  /** The alt text kept with the upload (empty unless it was sent with the file). */
  alt: string;
}

/**
 * Sends image files to POST /api/uploads and answers what was stored, or null after telling the
 * author why not (a toast). One helper for the Upload Images button, Insert image, paste and drop;
 * `alt` (Insert image's) is kept with the upload in the media library.
 */
export async function uploadImageFiles(files: readonly File[], alt = ""): Promise<UploadedImageRef[] | null> {
  if (files.length === 0) return null;
  const body = new FormData();
  for (const file of files) body.append("files", file);
  if (alt) body.append("alt", alt);
  try {
    const response = await fetch("/api/uploads", { method: "POST", body });
    const json: unknown = await response.json().catch(() => null);
    const error = json && typeof json === "object" && "error" in json && typeof json.error === "string" ? json.error : null;
    if (response.status === 401) {
      toast.error("You must be logged in to upload images");
      return null;
    }
    if (!response.ok || !json || typeof json !== "object" || !("images" in json) || !Array.isArray(json.images)) {
      toast.error("Upload failed", { description: error ?? `The server answered ${response.status}.` });
      return null;
    }
    const uploaded: UploadedImageRef[] = [];
    for (const img of json.images) {
      if (img && typeof img === "object" && "url" in img && typeof img.url === "string" && "id" in img && typeof img.id === "string")
        uploaded.push({ id: img.id, url: img.url, alt: "alt" in img && typeof img.alt === "string" ? img.alt : "" });
    }
    return uploaded;
  } catch (error) {
    toast.error("Upload failed", { description: error instanceof Error ? error.message : "Network error" });
    return null;
  }
}

/** The image files among pasted or dropped items (text and other files are left to the textarea). */
export function imageFilesOf(data: DataTransfer | null): File[] {
  if (!data) return [];
  return Array.from(data.files).filter((f) => f.type.startsWith("image/"));
}
