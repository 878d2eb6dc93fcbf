import { z } from "zod";
import { currentShareCard, shareImageOf, shareImagePng, type ShareSubject } from "~/features/share-images/share-images.server";
import { getSiteSettings } from "~/features/settings/settings.server";
import { parseCategory } from "~/lib/categories";
import { getDb } from "~/server/db/client.server";
import type { Route } from "./+types/share-image";

const FILE = /^([a-f0-9]{24})\.png$/;

function notFound() {
  return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain", "Cache-Control": "public, max-age=60" } });
}

function subjectOf(kind: string, subject: string): ShareSubject | null {
  if (kind === "post") return z.uuid().safeParse(subject).success ? { kind, id: subject } : null;
  if (kind !== "category") return null;
  const category = parseCategory(subject);
  return category === subject ? { kind, category } : null;
}

/**
 * GET /share-images/{post/<id>|category/<name>}/<hash>.png — a page's generated share image. The hash
 * is of what the card shows, so the URL changes with it and the image is cached for a year. An old
 * hash (the title changed since a scraper read the page) redirects to the current image; a missing
 * image is drawn once, on the first request.
 */
export async function loader({ params }: Route.LoaderArgs) {
  const subject = subjectOf(params.kind, params.subject);
  const hash = FILE.exec(params.file)?.[1];
  if (!subject || !hash) return notFound();
  const card = await currentShareCard(getDb(), subject, await getSiteSettings());
  if (!card) return notFound();
  const image = shareImageOf(subject, card);
  if (!image.url.endsWith(`/${hash}.png`)) {
    return new Response(null, { status: 302, headers: { Location: image.url, "Cache-Control": "public, max-age=300" } });
  }
  const png = await shareImagePng(card);
  return new Response(new Uint8Array(png), {
    headers: {
      "Content-Type": image.type,
      "Content-Length": String(png.length),
      "Cache-Control": "public, max-age=31536000, immutable",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    },
  });
}
