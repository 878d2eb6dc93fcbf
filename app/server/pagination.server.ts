import { NotFoundError } from "./errors.server";

export const PAGE_NOT_FOUND = "Oops! Page not found";

/** ?page=N, defaulting to 1; anything malformed is 1. */
export function pageParam(request: Request): number {
  const raw = new URL(request.url).searchParams.get("page");
  const n = raw && /^\d{1,6}$/.test(raw) ? Number(raw) : 1;
  return n >= 1 ? n : 1;
}

export interface PageWindow {
  page: number;
  pageCount: number;
  offset: number;
  limit: number;
}

/**
 * THE pagination rule of every list: pages are 1-based, an empty list has one (empty) page, and a
 * page past the last is a 404 (NotFoundError) — never an empty page, never a quiet jump elsewhere.
 */
export function pageWindow(total: number, page: number, perPage: number): PageWindow {
  const pageCount = Math.max(1, Math.ceil(total / perPage));
  const offset = pageOffset(page, perPage);
  if (page > pageCount) throw new NotFoundError(PAGE_NOT_FOUND);
  return { page, pageCount, offset, limit: perPage };
}

/**
 * Where a page starts, for a query that reads the page and the total in one go (before the total is
 * known); pageWindow must still judge the page against the total. Not a page at all is a 404.
 */
export function pageOffset(page: number, perPage: number): number {
  if (!Number.isInteger(page) || page < 1) throw new NotFoundError(PAGE_NOT_FOUND);
  return (page - 1) * perPage;
}
