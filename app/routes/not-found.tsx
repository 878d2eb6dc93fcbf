import { data, Link } from "react-router";
import { logger } from "~/server/logger.server";
import type { Route } from "./+types/not-found";

export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  logger.warn({ path: url.pathname }, "404: page not found");
  return data(null, { status: 404 });
}

export function meta() {
  return [{ title: "Page not found" }, { name: "robots", content: "noindex" }];
}

export default function NotFound() {
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center">
      <h1 className="text-4xl font-bold">404</h1>
      <p className="mt-4 text-xl text-muted-foreground">Oops! Page not found</p>
      <Link to="/" className="mt-6 text-primary underline hover:no-underline">
        Return to Home
      </Link>
    </section>
  );
}
