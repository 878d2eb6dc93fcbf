import type { ComponentProps } from "react";
import { Link } from "react-router";
import type { ResolvedLink } from "./menus";

/** A menu's link: a route through the router, another site's page in a new tab without an opener, a file as a plain link. */
export function MenuLink({ link, ...props }: { link: ResolvedLink } & Omit<ComponentProps<"a">, "href">) {
  if (link.type === "route")
    return (
      <Link to={link.href} {...props}>
        {link.label}
      </Link>
    );
  const external = link.type === "external" ? { target: "_blank", rel: "noopener noreferrer" } : {};
  return (
    <a href={link.href} {...external} {...props}>
      {link.label}
    </a>
  );
}
