// Media URL rules without zod, so public pages that only show media do not bring it along (public pages stay within the initial-JS budget).
export const MEDIA_KINDS = ["youtube", "vimeo", "video", "image"] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

const UPLOAD_PATH = /^\/uploads\/[A-Za-z0-9/_.-]+$/;
/** Images shipped with the app (public/images), e.g. the demo posts' /images/posts/faith-800.webp. */
const SHIPPED_IMAGE_PATH = /^\/images\/[A-Za-z0-9/_.-]+\.(?:webp|avif|png|jpe?g|gif|svg)$/;
const VIDEO_FILE = /\.(mp4|webm|ogg|ogv|mov|m4v)$/i;

function parseHttpUrl(value: string, httpsOnly: boolean): URL | null {
  try {
    const url = new URL(value);
    if (url.protocol === "https:") return url;
    if (!httpsOnly && url.protocol === "http:") return url;
    return null;
  } catch {
    return null;
  }
}

/** A site-relative upload or shipped-image path, or an absolute http(s) URL; anything else (javascript:, data:) is refused. */
export function isSafeImageUrl(value: string): boolean {
  if ((UPLOAD_PATH.test(value) || SHIPPED_IMAGE_PATH.test(value)) && !value.includes("..")) return true;
  return parseHttpUrl(value, false) !== null;
}

const YOUTUBE_ID = /^[A-Za-z0-9_-]{6,20}$/;

/** YouTube watch, shorts, embed and youtu.be URLs → the embed URL (SPEC §7); null otherwise. */
export function youtubeEmbedUrl(value: string): string | null {
  const url = parseHttpUrl(value, true);
  if (!url) return null;
  const host = url.hostname.replace(/^(www\.|m\.)/, "");
  let id: string | null = null;
  if (host === "youtu.be") id = url.pathname.slice(1).split("/")[0] ?? null;
  else if (host === "youtube.com" || host === "youtube-nocookie.com") {
    if (url.pathname === "/watch") id = url.searchParams.get("v");
    else {
      const match = /^\/(shorts|embed|live)\/([^/]+)/.exec(url.pathname);
      id = match?.[2] ?? null;
    }
  }
  return id && YOUTUBE_ID.test(id) ? `https://www.youtube.com/embed/${id}` : null;
}

/** vimeo.com/{id} or player.vimeo.com/video/{id} → the player URL; null otherwise. */
export function vimeoEmbedUrl(value: string): string | null {
  const url = parseHttpUrl(value, true);
  if (!url) return null;
  const host = url.hostname.replace(/^www\./, "");
  let id: string | undefined;
  if (host === "vimeo.com") id = /^\/(?:video\/)?(\d+)/.exec(url.pathname)?.[1];
  else if (host === "player.vimeo.com") id = /^\/video\/(\d+)/.exec(url.pathname)?.[1];
  return id ? `https://player.vimeo.com/video/${id}` : null;
}

export function isVideoFileUrl(value: string): boolean {
  if (UPLOAD_PATH.test(value)) return VIDEO_FILE.test(value);
  const url = parseHttpUrl(value, true);
  return url !== null && VIDEO_FILE.test(url.pathname);
}

/** Which kind a pasted URL is, or null when it is not a recognised provider or file. */
export function detectMediaKind(value: string): Exclude<MediaKind, "image"> | null {
  if (youtubeEmbedUrl(value)) return "youtube";
  if (vimeoEmbedUrl(value)) return "vimeo";
  if (isVideoFileUrl(value)) return "video";
  return null;
}

export const MEDIA_URL_MESSAGE = "Enter an https YouTube, Vimeo or video file (.mp4, .webm) URL";

export const ALT_MAX = 300;
export const ALT_TOO_LONG = `Alt text must be less than ${ALT_MAX} characters`;
