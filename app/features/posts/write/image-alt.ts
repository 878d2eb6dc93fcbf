/**
 * The alt-text rule for publishing: every image a published post shows (featured image, gallery
 * images, Markdown images in Content) needs alt text. Plain string work, no Markdown engine, so the
 * browser form checks it with the same code as the server.
 */

/** `![alt](url "title")` — inline Markdown images; the URL may be wrapped in <>. */
const MARKDOWN_IMAGE = /!\[((?:\\.|[^\]\\])*)\]\(\s*(?:<([^>\n]*)>|([^\s)]+))(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/g;
/** Code is shown as text, never as an image: fenced blocks first, then inline code spans. */
const FENCED_CODE = /^( {0,3})(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:\n {0,3}\2[`~]*[ \t]*(?=\n|$)|$)/gm;
const INLINE_CODE = /(`+)[\s\S]*?\1/g;

export interface MarkdownImage {
  alt: string;
  url: string;
}

/** The inline images of Markdown content, in order (images inside code are not images). */
export function markdownImages(content: string): MarkdownImage[] {
  const text = content.replace(FENCED_CODE, "").replace(INLINE_CODE, "");
  return Array.from(text.matchAll(MARKDOWN_IMAGE), (m) => ({ alt: (m[1] ?? "").replace(/\\(.)/g, "$1"), url: m[2] ?? m[3] ?? "" }));
}

/** How the author knows an image: the file name at the end of its URL ("photo.png"). */
export function imageName(url: string): string {
  const path = url.split(/[?#]/, 1)[0] ?? url;
  const last = path.split("/").filter(Boolean).pop() ?? url;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

export function missingAltMessage(url: string): string {
  return `Add alt text to the image "${imageName(url)}" before publishing`;
}

export interface ImagesOfPost {
  featuredImageUrl?: string | null;
  featuredImageAlt?: string | null;
  content?: string | null;
  media?: readonly { mediaType: string; mediaUrl: string; alt?: string | null }[];
}

/** The first image the post shows without alt text (featured, then gallery, then Content), with where to report it. */
export function firstImageWithoutAlt(post: ImagesOfPost): { path: (string | number)[]; url: string } | null {
  const blank = (alt: string | null | undefined) => !alt?.trim();
  if (post.featuredImageUrl && blank(post.featuredImageAlt)) return { path: ["featuredImageAlt"], url: post.featuredImageUrl };
  // A gallery copy of the featured image is not shown again (the post page skips it).
  const index = (post.media ?? []).findIndex((m) => m.mediaType === "image" && m.mediaUrl !== post.featuredImageUrl && blank(m.alt));
  const item = post.media?.[index];
  if (item) return { path: ["media", index, "alt"], url: item.mediaUrl };
  const inline = markdownImages(post.content ?? "").find((img) => blank(img.alt));
  if (inline) return { path: ["content"], url: inline.url };
  return null;
}
