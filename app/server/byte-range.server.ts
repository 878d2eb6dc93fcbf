import type { Readable } from "node:stream";
import type { Storage } from "./storage.server";

/** A satisfiable byte range, inclusive ends (RFC 9110 §14.1.2). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Reads a Range header for a resource of `size` bytes: undefined when there is none or it is not a
 * single bytes range we serve (then the whole file is sent), "unsatisfiable" for a range past the end
 * (416), or the range to send (206). Multiple ranges are answered with the whole file, as RFC 9110 allows.
 */
export function parseByteRange(header: string | null, size: number): ByteRange | "unsatisfiable" | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined;
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return undefined;
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size) return "unsatisfiable";
  if (end < start) return undefined;
  return { start, end };
}

export type RangedRead =
  | { status: 200; stream: Readable; size: number }
  | { status: 206; stream: Readable; size: number; range: ByteRange }
  | { status: 416; size: number };

/**
 * Opens a stored object for a GET that may carry a Range header, reading the store once: without
 * a Range, one read; with one, a stat for the size (HEAD on S3) and then one read of the slice
 * (or of the whole object when the range is one we do not serve). Null when the object is gone.
 */
export async function openRanged(
  storage: Pick<Storage, "openRead" | "stat">,
  key: string,
  header: string | null,
): Promise<RangedRead | null> {
  if (!header) {
    const file = await storage.openRead(key);
    return file && { status: 200, stream: file.stream, size: file.size };
  }
  const stat = await storage.stat(key);
  if (!stat) return null;
  const range = parseByteRange(header, stat.size);
  if (range === "unsatisfiable") return { status: 416, size: stat.size };
  const file = await storage.openRead(key, range);
  if (!file) return null;
  return range ? { status: 206, stream: file.stream, size: file.size, range } : { status: 200, stream: file.stream, size: file.size };
}
