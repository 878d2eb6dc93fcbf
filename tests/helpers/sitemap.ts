import { postsFileIds, uuidOf } from "~/features/pages/sitemap";

/**
 * Post ids on the edges of `files` sitemap files (which also edge every larger count of files): each
 * file's first id, the id just before it, and the last possible id. A post on an edge is where a wrong
 * boundary shows: left out of both files, or in both.
 */
export function postIdsOnFileEdges(files: number): string[] {
  const firsts = Array.from({ length: files }, (_, i) => postsFileIds(i + 1, files).from);
  const justBefore = firsts.slice(1).map((id) => uuidOf(BigInt(`0x${id.replaceAll("-", "")}`) - 1n));
  return [...firsts, ...justBefore, uuidOf((1n << 128n) - 1n)];
}
