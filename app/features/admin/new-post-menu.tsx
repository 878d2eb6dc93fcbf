import { ChevronDown, Plus } from "lucide-react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuTrigger } from "~/components/ui/dropdown-menu";
import { CATEGORIES, categoryPath } from "~/lib/categories";

/**
 * 'New post' with its category picker: each entry opens the editor at /7fs/{category}/new (the
 * category can still be changed once the post is saved).
 */
export function NewPostMenu({ variant = "default", size = "sm" }: { variant?: "default" | "outline"; size?: "sm" | "default" }) {
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button type="button" variant={variant} size={size}>
          <Plus aria-hidden />
          {/* On a phone the top bar keeps the icon; the name stays for screen readers. */}
          <span className="max-sm:sr-only">New post</span>
          <ChevronDown aria-hidden className="max-sm:hidden" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="min-w-44">
        <DropdownMenuLabel>Category</DropdownMenuLabel>
        {CATEGORIES.map((c) => (
          <DropdownMenuItem key={c} asChild>
            <Link to={`${categoryPath(c)}/new`}>{c}</Link>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
