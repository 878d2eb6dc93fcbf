import type Sharp from "sharp";

let loaded: Promise<typeof Sharp> | undefined;

/**
 * sharp (libvips) costs ~16 MB resident once imported, and most processes never touch an image: it is
 * loaded on first use. libvips' operation cache (up to 50 MB by default) is turned off: every image
 * is decoded once, so a cached operation is never reused and would only hold memory.
 */
export function loadSharp(): Promise<typeof Sharp> {
  loaded ??= import("sharp").then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  });
  return loaded;
}
