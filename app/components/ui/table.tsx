import { ArrowDown, ArrowUp } from "lucide-react";
import type * as React from "react";
import { Link } from "react-router";
import { cn } from "~/lib/utils";

/**
 * shadcn/ui's table, with the admin lists' look as its defaults: a horizontally scrolling container, a
 * caption (visible or sr-only), column headers (`scope="col"`, optionally sortable) and bordered rows.
 */
export function Table({ className, containerClassName, ...props }: React.ComponentProps<"table"> & { containerClassName?: string }) {
  return (
    <div data-slot="table-container" className={cn("overflow-x-auto", containerClassName)}>
      <table data-slot="table" className={cn("w-full text-left text-sm", className)} {...props} />
    </div>
  );
}

export function TableCaption({ className, ...props }: React.ComponentProps<"caption">) {
  return <caption data-slot="table-caption" className={className} {...props} />;
}

export function TableHeader({ className, ...props }: React.ComponentProps<"thead">) {
  return <thead data-slot="table-header" className={className} {...props} />;
}

export function TableBody({ className, ...props }: React.ComponentProps<"tbody">) {
  return <tbody data-slot="table-body" className={className} {...props} />;
}

export function TableRow({ className, ...props }: React.ComponentProps<"tr">) {
  return <tr data-slot="table-row" className={cn("border-b", className)} {...props} />;
}

/**
 * A column header. A sortable one names its order (`aria-sort`) and links to the other order
 * (`sortHref`), so sorting works without JavaScript and by keyboard.
 */
export function TableHead({
  className,
  sort,
  sortHref,
  children,
  ...props
}: React.ComponentProps<"th"> & { sort?: "ascending" | "descending" | "none"; sortHref?: string }) {
  return (
    <th data-slot="table-head" scope="col" aria-sort={sort} className={cn("py-2 pr-4 last:pr-0", className)} {...props}>
      {sortHref ? (
        <Link to={sortHref} className="inline-flex items-center gap-1 underline-offset-4 hover:underline">
          {children}
          {sort === "ascending" ? <ArrowUp aria-hidden className="size-3" /> : null}
          {sort === "descending" ? <ArrowDown aria-hidden className="size-3" /> : null}
        </Link>
      ) : (
        children
      )}
    </th>
  );
}

export function TableCell({ className, ...props }: React.ComponentProps<"td">) {
  return <td data-slot="table-cell" className={cn("py-2 pr-4 last:pr-0", className)} {...props} />;
}
