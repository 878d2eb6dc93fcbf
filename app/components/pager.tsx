import type * as React from "react";
import { Link } from "react-router";
import { cn } from "~/lib/utils";

/** How a list's pages are linked: by page number (`page` of `pageCount`) or by keyset (the neighbours' addresses). */
type PagerPosition = { page: number; pageCount: number; href: (page: number) => string } | { prevHref?: string; nextHref?: string };

const STYLES = {
  // Admin lists: left-aligned, small, plain underlined links.
  admin: { nav: "mt-6 flex items-center gap-4 text-sm", link: "underline", status: undefined },
  // Public listings: centred, links in the primary colour.
  public: { nav: "mt-10 flex items-center justify-center gap-4", link: "text-primary underline", status: "text-sm text-muted-foreground" },
} as const;

/**
 * The one pager of every list: a named navigation landmark with the previous and next pages as
 * rel=prev/next links and, for numbered pages, 'Page N of M'. Nothing is drawn for a single page.
 */
export function Pager({
  label,
  prevLabel,
  nextLabel,
  variant = "admin",
  statusAsOneText = false,
  className,
  ...position
}: PagerPosition & {
  /** The landmark's accessible name ("Message pages", "Pagination"). */
  label: string;
  prevLabel: React.ReactNode;
  nextLabel: React.ReactNode;
  variant?: keyof typeof STYLES;
  /** 'Page N of M' as one text node (the public listings' markup) rather than React's split text. */
  statusAsOneText?: boolean;
  className?: string;
}) {
  const numbered = "page" in position;
  const prevHref = numbered ? (position.page > 1 ? position.href(position.page - 1) : undefined) : position.prevHref;
  const nextHref = numbered ? (position.page < position.pageCount ? position.href(position.page + 1) : undefined) : position.nextHref;
  if (numbered ? position.pageCount <= 1 : !prevHref && !nextHref) return null;
  const style = STYLES[variant];
  return (
    <nav aria-label={label} className={cn(style.nav, className)}>
      {prevHref ? (
        <Link rel="prev" to={prevHref} className={style.link}>
          {prevLabel}
        </Link>
      ) : null}
      {numbered ? (
        <span className={style.status}>
          {statusAsOneText ? (
            `Page ${position.page} of ${position.pageCount}`
          ) : (
            <>
              Page {position.page} of {position.pageCount}
            </>
          )}
        </span>
      ) : null}
      {nextHref ? (
        <Link rel="next" to={nextHref} className={style.link}>
          {nextLabel}
        </Link>
      ) : null}
    </nav>
  );
}
